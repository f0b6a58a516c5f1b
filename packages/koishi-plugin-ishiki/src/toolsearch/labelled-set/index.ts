import { githubTools } from "./github-tools.js";
import type { LabelledQuery, LabelledTool } from "./labelled-tool.js";
import { fetchAndTimeTools, filesystemTools, gitTools, memoryTools, sqliteTools } from "./mcp-tools.js";
import { onebotTools } from "./onebot-tools.js";
import { chineseQueries, englishQueries } from "./queries.js";
import { pluginTools, workspaceTools } from "./workspace-tools.js";

export type { LabelledQuery, LabelledTool } from "./labelled-tool.js";
export { labelledToolSet, recallAt, type RecallReport } from "./evaluate.js";

/** The shipped labelled set of spec 05 CT-26: realistic tools and queries labelled with the tools answering them. */
export const labelledTools: readonly LabelledTool[] = [
  ...workspaceTools,
  ...onebotTools,
  ...pluginTools,
  ...memoryTools,
  ...filesystemTools,
  ...fetchAndTimeTools,
  ...sqliteTools,
  ...gitTools,
  ...githubTools,
];

export const labelledQueries: readonly LabelledQuery[] = [...englishQueries, ...chineseQueries];
