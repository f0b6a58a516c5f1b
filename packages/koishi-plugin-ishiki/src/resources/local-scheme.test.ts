import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import { containPath } from "./contain-path.js";
import { ResourceError } from "./resource-error.js";

const SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";

let base: string;
let root: string;
let center: OwnedResourceCenter;

async function rejection(promise: Promise<unknown>): Promise<ResourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "ishiki-local-")));
  root = join(base, "root");
  await mkdir(join(root, "a", "b"), { recursive: true });
  await mkdir(join(base, "root-evil"));
  await writeFile(join(root, "notes.txt"), "one\ntwo\n");
  await writeFile(join(root, "a", "b.txt"), "deep");
  await writeFile(join(base, "secret.txt"), SECRET);
  await writeFile(join(base, "root-evil", "secret.txt"), SECRET);
  // A FIFO outside the root: opening it for reading would block, so a read attempt hangs the test.
  execFileSync("mkfifo", [join(base, "pipe")]);
  await symlink(join(base, "secret.txt"), join(root, "link-out.txt"));
  await symlink(join(base, "pipe"), join(root, "link-pipe"));
  await symlink("../root-evil", join(root, "evil-dir"));
  await symlink(base, join(root, "up"));
  await symlink(join(base, "missing-target.txt"), join(root, "dangling.txt"));
  await symlink(join(root, "a"), join(root, "inside-link"));
  center = createResourceCenter({ runtimeId: "p:local", home: root });
  await center.store.registerAsset("https://example.com/secret-token.png");
  await symlink(join(root, "resources"), join(root, "store-link"));
});

afterAll(async () => {
  center.dispose();
  await rm(base, { recursive: true, force: true });
});

describe("local://", () => {
  it("RS-25 authority and path join into one path under the home", async () => {
    expect(await center.resolve("local://notes.txt")).toMatchObject({ type: "text", text: "one\ntwo\n", filename: "notes.txt" });
    expect(await center.resolve("local://a/b.txt")).toMatchObject({ text: "deep" });
    expect(await center.resolve("local://inside-link/b.txt")).toMatchObject({ text: "deep" });
    expect(await center.resolve("local://notes.txt:2")).toMatchObject({ text: "two\n", source: { url: "local://notes.txt", totalLines: 2 } });
  });

  it("RS-25 missing files are resource_not_found; an empty authority is invalid", async () => {
    expect((await rejection(center.resolve("local://nope.txt"))).code).toBe("resource_not_found");
    expect((await rejection(center.resolve("local://a/nope/deeper.txt"))).code).toBe("resource_not_found");
    expect((await rejection(center.resolve("local:///notes.txt"))).code).toBe("invalid_resource_uri");
  });

  it("RS-25 the store under resources/ is refused, also through a symlink", async () => {
    for (const url of ["local://resources", "local://resources/assets", "local://store-link/assets"]) {
      const error = await rejection(center.resolve(url));
      expect(error.code).toBe("resource_not_found");
      expect(error.message).not.toContain("secret-token");
    }
  });

  it("RS-15 RS-25 local files are not immutable", async () => {
    await writeFile(join(root, "pic.gif"), Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00", "latin1"));
    expect(await center.resolve("local://pic.gif")).toMatchObject({ type: "file", mediaType: "image/gif", immutable: false });
  });
});

describe("path attacks on local:// and containPath", () => {
  const attacks = [
    "local://../secret.txt",
    "local://a/../../secret.txt",
    "local://a/b/../../../secret.txt",
    "local://%2e%2e/secret.txt",
    "local://a/%2E%2E/%2e%2e/secret.txt",
    "local://a/..%2f..%2fsecret.txt",
    "local://a\\..\\..\\secret.txt",
    "local://a%5c..%5c..%5csecret.txt",
    "local://notes.txt%00.png",
    "local://notes.txt\0",
    `local://${tmpdir()}/secret.txt`,
    "local:///etc/passwd",
    "local://link-out.txt",
    "local://link-pipe",
    "local://evil-dir/secret.txt",
    "local://up/secret.txt",
    "local://up/root-evil/secret.txt",
    "local://dangling.txt",
  ];

  it.each(attacks)("RS-5 RS-22 QA-8 %s is refused with invalid_resource_uri and reads nothing outside", async (url) => {
    const error = await rejection(center.resolve(url));
    expect(error.code).toBe("invalid_resource_uri");
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(base);
  });

  it("RS-22 containPath uses realpath of root and candidate and refuses a root-prefix sibling", async () => {
    await expect(containPath(root, "notes.txt", "local")).resolves.toBe(join(root, "notes.txt"));
    await expect(containPath(root, join(root, "a", "new-file.txt"))).resolves.toBe(join(root, "a", "new-file.txt"));
    await expect(containPath(root, root)).resolves.toBe(root);
    for (const candidate of [join(base, "root-evil", "secret.txt"), "../root-evil/secret.txt", join(root, "evil-dir"), join(root, "link-out.txt"), "/etc/passwd", "a/\0x"]) {
      const error = await rejection(containPath(root, candidate, "local"));
      expect(error.code).toBe("invalid_resource_uri");
      expect(error.message).toMatch(/^path escapes local root/);
    }
    // the root given through a symlink is compared by its real path
    await symlink(root, join(base, "root-alias"));
    await expect(containPath(join(base, "root-alias"), "a/b.txt")).resolves.toBe(join(root, "a", "b.txt"));
  });
});
