import h from "@satorijs/element";
import type { IshikiMessageCreated } from "../../types/index.js";

/** The visible text of element markup: text nodes only, markup stripped. */
export function textContent(content: string): string {
  const parts: string[] = [];
  const visit = (elements: h[]): void => {
    for (const element of elements) {
      if (element.type === "text") parts.push(String(element.attrs.content ?? ""));
      else visit(element.children);
    }
  };
  visit(h.parse(content));
  return parts.join("");
}

/** An `<at>` naming the bot's own id; `@all` / `@here` do not count (spec 06 EN-26). */
export function mentionsSelf(fact: IshikiMessageCreated): boolean {
  let found = false;
  const visit = (elements: h[]): void => {
    for (const element of elements) {
      if (element.type === "at" && element.attrs.type === undefined && String(element.attrs.id ?? "") === fact.selfId) found = true;
      else visit(element.children);
    }
  };
  visit(h.parse(fact.content));
  return found;
}

/** The quoted message was written by the bot. */
export function quotesSelf(fact: IshikiMessageCreated): boolean {
  return fact.quote?.user?.id === fact.selfId;
}

/** The first keyword occurring in the fact's text, case-insensitive; undefined when none does. */
export function matchKeyword(fact: IshikiMessageCreated, keywords: readonly string[]): string | undefined {
  if (keywords.length === 0) return undefined;
  const text = textContent(fact.content).toLowerCase();
  return keywords.find((keyword) => keyword !== "" && text.includes(keyword.toLowerCase()));
}
