export declare const FOLDER_ORDER: readonly string[];
/** One line per violation, `path:line: reason`; empty when the plugin's `srcDir` keeps the order of spec 00 OV-7/OV-8. */
export declare function checkImportOrder(srcDir: string): string[];
/** One line per violation; empty when the package's sources import only what its package.json declares (OV-6, OV-8). */
export declare function checkPackageBoundaries(packageDir: string): string[];
