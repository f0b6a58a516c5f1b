// The CT-24 tokenizer, shared by indexed documents and queries so both sides produce the same terms.

// An identifier is a run of letters, marks and digits joined by `_` or `-` (snake and kebab case); everything
// else (spaces, `.`, `/`, punctuation) separates identifiers.
const IDENTIFIER = /[\p{L}\p{M}\p{N}]+(?:[_-]+[\p{L}\p{M}\p{N}]+)*/gu;
const ASCII_IDENTIFIER = /[A-Za-z0-9]+(?:[_-]+[A-Za-z0-9]+)*/g;
const SEPARATOR = /[_-]+/;
// camelCase boundaries: `readFile` -> read|File, `HTTPServer` -> HTTP|Server.
const CAMEL_BOUNDARY = /(?<=\p{Ll}|\p{N})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
// Script runs: Han, Kana and Hangul each form their own run; all other letters and digits form "other" runs.
const SCRIPT_RUN =
  /(\p{Script=Han}+)|([\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+)|(\p{Script=Hangul}+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\p{Script=Hangul}]+)/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Overlapping bigrams of a CJK run; a single character stays a unigram. */
function bigrams(run: string, into: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) into.push(chars[0]);
  for (let i = 0; i + 1 < chars.length; i++) into.push(chars[i] + chars[i + 1]);
}

const isUpper = (code: number) => code >= 65 && code <= 90;
const isLowerOrDigit = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

/** camelCase parts of an ASCII word without a regex: this loop is the indexing hot path. */
function asciiCamelParts(word: string, into: string[]): void {
  let start = 0;
  for (let i = 1; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (!isUpper(code)) continue;
    const previous = word.charCodeAt(i - 1);
    const next = i + 1 < word.length ? word.charCodeAt(i + 1) : 0;
    if (isLowerOrDigit(previous) || (isUpper(previous) && next >= 97 && next <= 122)) {
      into.push(word.slice(start, i).toLowerCase());
      start = i;
    }
  }
  into.push(word.slice(start).toLowerCase());
}

function camelParts(word: string, into: string[]): void {
  if (ASCII.test(word)) asciiCamelParts(word, into);
  else for (const part of word.split(CAMEL_BOUNDARY)) into.push(part.toLowerCase());
}

function identifierTerms(identifier: string): string[] {
  const terms: string[] = [];
  let cjk = false;
  for (const word of identifier.split(SEPARATOR)) {
    if (ASCII.test(word)) {
      asciiCamelParts(word, terms);
      continue;
    }
    for (const run of word.matchAll(SCRIPT_RUN)) {
      if (run[4] !== undefined) camelParts(run[4], terms);
      else {
        cjk = true;
        bigrams(run[0].toLowerCase(), terms);
      }
    }
  }
  // The joined form lets `writeFile`, `write-file` and `write_file` meet on `writefile`.
  if (terms.length > 1 && !cjk) terms.push(terms.join(""));
  return terms;
}

// Descriptions and parameter names repeat the same words across tools; indexing thousands of tools mostly hits here.
const cache = new Map<string, readonly string[]>();
const CACHE_LIMIT = 20_000;

/**
 * Tokenizes text for tool search (spec 05 CT-24): NFKC, lowercase; words split at non-letter/digit characters
 * and camelCase boundaries, with the joined identifier emitted as well (`read_file` -> read, file, readfile);
 * script changes split words (`用bash执行` -> 用, bash, 执行); Han, Kana and Hangul runs become overlapping
 * bigrams, a single character a unigram.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const ascii = ASCII.test(text);
  const normalized = ascii ? text : text.normalize("NFKC");
  // `match` with a global pattern yields bare strings, without the per-match objects `matchAll` allocates.
  for (const identifier of normalized.match(ascii ? ASCII_IDENTIFIER : IDENTIFIER) ?? []) {
    let known = cache.get(identifier);
    if (!known) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(identifier, (known = identifierTerms(identifier)));
    }
    for (const term of known) terms.push(term);
  }
  return terms;
}
