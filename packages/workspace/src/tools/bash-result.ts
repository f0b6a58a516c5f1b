import { Buffer } from "node:buffer";

/** What `bash` returns (WS-10): a non-zero exit code is a normal result. */
export interface BashResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Cuts one stream at `maxBytes` UTF-8 bytes, on a character boundary, with a note saying so (WS-12). */
export function capStream(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString("utf8")}\n[output truncated at ${maxBytes} bytes]`;
}

/** The model's view of a result (WS-13): the exit code, then the non-empty streams under their headings. */
export function bashDisplay(result: BashResult): string {
  const parts = [`exit code: ${result.exitCode}`];
  if (result.stdout !== "") parts.push(`--- stdout ---\n${result.stdout}`);
  if (result.stderr !== "") parts.push(`--- stderr ---\n${result.stderr}`);
  return parts.join("\n");
}
