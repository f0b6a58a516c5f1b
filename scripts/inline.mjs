// Dependencies a package inlines into its lib/ at build time instead of installing them beside it; they are
// devDependencies of that package, and their own runtime imports are its dependencies.
//
// just-bash lists two native compressors (`@mongodb-js/zstd`, `node-liblzma`) as optional dependencies, which a
// plain `npm install` compiles with node-gyp (and fails to on a machine without a C++ toolchain); nothing we ship
// uses xz or zstd, and npm has no way for a package to decline a dependency's optional dependencies. Inlined into
// the workspace package, just-bash's runtime imports (diff, minimatch, seek-bzip, sprintf-js, sql.js, turndown)
// stay external and the compressors stay lazy imports that just-bash reports as missing if a sandbox command
// needs them (issue 20).
export const INLINED = {
  "koishi-plugin-ishiki-workspace": ["just-bash"],
};
