import { GLOSSARY } from "./glossary.js";
import { STOP_WORDS } from "./stop-words.js";
import { tokenize } from "./tokenizer.js";

/** Weight of a term that only a glossary widening contributed, relative to the query's own terms. */
export const EXPANSION_WEIGHT = 0.4;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

// English words match whole query terms; Chinese words match anywhere in the query (it has no word breaks).
const groupsByTerm = new Map<string, number[]>();
const chineseWords: Array<{ word: string; group: number }> = [];
const groupTerms = GLOSSARY.map((words) => words.flatMap((word) => tokenize(word)));
GLOSSARY.forEach((words, group) => {
  for (const word of words) {
    if (CJK.test(word)) chineseWords.push({ word, group });
    else groupsByTerm.set(word, [...(groupsByTerm.get(word) ?? []), group]);
  }
});

/** A query's own terms and the extra terms of the glossary groups it touches. */
export interface QueryTerms {
  readonly terms: readonly string[];
  readonly expanded: ReadonlySet<string>;
}

/** Tokenizes a query (spec 05 CT-24), drops stop words unless nothing else is left, and widens it by the glossary. */
export function queryTerms(query: string): QueryTerms {
  const all = tokenize(query);
  const meaningful = all.filter((term) => !STOP_WORDS.has(term));
  const terms = meaningful.length > 0 ? meaningful : all;
  const groups = new Set<number>();
  for (const term of terms) for (const group of groupsByTerm.get(term) ?? []) groups.add(group);
  if (!/^[\x00-\x7f]*$/.test(query)) {
    const text = query.normalize("NFKC").toLowerCase();
    for (const { word, group } of chineseWords) if (text.includes(word)) groups.add(group);
  }
  const own = new Set(terms);
  const expanded = new Set<string>();
  for (const group of groups) for (const term of groupTerms[group]) if (!own.has(term)) expanded.add(term);
  return { terms, expanded };
}
