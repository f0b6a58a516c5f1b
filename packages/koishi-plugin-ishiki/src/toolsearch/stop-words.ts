// (decided here) English function words carry no meaning for finding a tool, yet occur in almost every description:
// matching them only adds BM25 noise and costs time proportional to the number of tools. They are left out of
// descriptions and of queries that have other words; names and parameter names keep them (`from`, `to`).
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how", "i",
  "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "please", "should", "so", "some", "than",
  "that", "the", "their", "them", "then", "there", "these", "this", "those", "to", "was", "we", "were", "what",
  "when", "which", "will", "with", "you", "your",
]);
