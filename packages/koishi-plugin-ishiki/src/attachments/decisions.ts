/** The decision strings that end each attachment line (04 EX-29). */
export const DECISIONS = {
  include: "include: original bytes",
  represented: "omit: already represented in this request",
  shownEarlier: "omit: shown earlier",
  released: "omit: released",
  imageInputDisabled: "describe: image input is disabled for this model",
  unsupportedMediaType: "describe: unsupported media type",
  unsupportedEncoding: "describe: unsupported image encoding",
  singleByteLimit: "describe: single image byte limit",
  requestByteLimit: "describe: request image byte limit",
  dimensionLimit: "describe: image dimension limit",
  countBudget: "defer: request image count limit",
  byteBudget: "defer: request image byte budget",
  unavailable: (code: string) => `defer: resource unavailable (${code})`,
} as const;
