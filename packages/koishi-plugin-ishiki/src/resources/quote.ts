/** Quoted input in messages is shortened to 200 characters (QA-2). */
export function quote(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
