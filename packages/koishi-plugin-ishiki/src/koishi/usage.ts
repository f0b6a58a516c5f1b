/** Markdown the Koishi console shows above the plugin's configuration form. */
export const usage = `
Ishiki 为机器人提供 LLM Agent 运行时：每个频道一个智能体，所有事实按行追加写入 \`events.jsonl\`。

在下方配置数据目录；模型与 profile 的配置说明见项目文档 \`docs/\`。
`;
