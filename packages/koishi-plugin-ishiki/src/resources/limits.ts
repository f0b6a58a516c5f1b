/** Full-text and binary reads above this size fail; ranges and offsets stream instead (RS-21). */
export const MAX_READ_BYTES = 32 * 1024 * 1024;
