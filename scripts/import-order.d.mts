export declare const FOLDER_ORDER: readonly string[];
/** One line per violation, `path:line: reason`; empty when `srcDir` keeps the order of spec 00 OV-7/OV-8. */
export declare function checkImportOrder(srcDir: string): string[];
