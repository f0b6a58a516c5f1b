export { validateWithZod } from "./zod-block.js";
export { channelHead, formatAuthor, formatStamp, renderCreated, renderDeleted } from "./fact-line.js";
export { renderFacts, type RenderFactsOptions } from "./render-facts.js";
export { matchKeyword, mentionsSelf, quotesSelf, textContent } from "./fact-hits.js";
