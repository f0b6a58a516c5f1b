/** The attachment sentence of the Resources paragraph of the instructions (04 EX-40, 08 KP-37). */
export function attachmentInstructions(imageInput: boolean): string {
  return imageInput
    ? "Media you read or that arrive in chat are attached as images in a following user message within per-request limits; each attachment line ends with its decision (include, omit, describe or defer)."
    : "Media you read or that arrive in chat are kept as references: you are shown their URLs, types and sizes, not their content; pass the URLs to tools that accept them.";
}
