import type { ToolDocument } from "../../src/toolsearch/index.js";
import { seededRandom } from "../../src/runtime/seeded-random.js";

// A deterministic corpus of tools with the term statistics of real tool catalogs: Zipf-distributed vocabulary,
// English function words, a fifth of the descriptions in Chinese (from a word list), API-style names and parameter
// names. Sizes follow the shipped labelled set of real tools: per tool about 4 name terms, 13 description terms
// and 2-3 parameters.

function zipf<T>(items: readonly T[], next: () => number): () => T {
  const cumulative: number[] = [];
  let total = 0;
  items.forEach((_, rank) => cumulative.push((total += 1 / Math.pow(rank + 1, 1.05))));
  return () => {
    const target = next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return items[low];
  };
}

const SYLLABLES = ["ka", "lo", "mi", "ter", "pro", "sen", "da", "vi", "ron", "ex", "tal", "ge", "nu", "sor", "bel", "qua", "fi", "tex", "mon", "ar"];
const VERBS = ["get", "list", "create", "update", "delete", "search", "send", "read", "write", "set", "add", "remove", "run", "fetch", "query", "upload", "download", "sync", "export", "import", "start", "stop", "check", "open", "close", "move", "copy", "merge", "share", "publish"];
const FUNCTION_WORDS = ["the", "a", "of", "to", "in", "for", "and", "with", "from", "on", "by", "is", "or", "an", "as", "this", "that", "if", "it", "be"];
const HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";

function word(next: () => number): string {
  const length = 2 + Math.floor(next() * 3);
  let text = "";
  for (let i = 0; i < length; i++) text += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
  return text;
}

/** `count` synthetic tool documents; the same seed gives the same corpus. */
export function syntheticTools(count: number, seed = 7): ToolDocument[] {
  const next = seededRandom(seed);
  const vocabulary = Array.from({ length: 3000 }, () => word(next));
  const servers = Array.from({ length: 250 }, () => word(next));
  const paramNames = Array.from({ length: 500 }, (_, i) => {
    const a = word(next);
    const b = word(next);
    return i % 3 === 0 ? a : i % 3 === 1 ? `${a}_${b}` : `${a}${b[0].toUpperCase()}${b.slice(1)}`;
  });
  const term = zipf(vocabulary, next);
  const hanChars = Array.from(HAN);
  // Chinese text repeats words, so its bigrams come from a word list rather than from random character pairs.
  const chineseWords = Array.from({ length: 1500 }, () => {
    const length = next() < 0.7 ? 2 : next() < 0.5 ? 1 : 3;
    return Array.from({ length }, () => hanChars[Math.floor(next() * hanChars.length)]).join("");
  });
  const chinese = zipf(chineseWords, next);
  const param = zipf(paramNames, next);
  const documents: ToolDocument[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const server = servers[i % servers.length];
    const verb = VERBS[Math.floor(next() * VERBS.length)];
    // Real names are unique without serial numbers: a clash takes one more word instead.
    let name = `${server}-${verb}_${term()}`;
    while (names.has(name)) name += `_${term()}`;
    names.add(name);
    let description = "";
    if (next() < 0.2) {
      const words = 3 + Math.floor(next() * 10);
      for (let w = 0; w < words; w++) description += chinese() + (w % 9 === 8 ? "。" : "");
    } else {
      const words = 4 + Math.floor(next() * 17);
      const parts = [verb];
      for (let w = 0; w < words; w++) parts.push(next() < 0.3 ? FUNCTION_WORDS[Math.floor(next() * FUNCTION_WORDS.length)] : term());
      description = `${parts.join(" ")}.`;
    }
    const params = Array.from(new Set(Array.from({ length: 1 + Math.floor(next() * 4) }, () => param())));
    documents.push({ name, description, params });
  }
  return documents;
}
