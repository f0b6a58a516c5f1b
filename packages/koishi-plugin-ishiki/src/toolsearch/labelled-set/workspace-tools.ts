import { bool, int, list, type LabelledTool, num, object, oneOf, str } from "./labelled-tool.js";

// The workspace extension's tools (09 WS-10 .. WS-16) and tools of typical Koishi plugins, which Chinese
// plugin authors describe in Chinese.
export const workspaceTools: LabelledTool[] = [
  {
    name: "bash",
    description:
      "Run a bash command in the sandbox and return stdout, stderr and the exit code. Shell state does not persist " +
      "between calls; file changes do. Use it for ls, grep, sed, jq and other shell utilities.",
    inputSchema: object({ command: str("The command line to run") }),
  },
  {
    name: "read_file",
    description: "Read a UTF-8 text file from the workspace. Paths are absolute or relative to the working directory.",
    inputSchema: object({ path: str("File path") }),
  },
  {
    name: "write_file",
    description: "Write text to a file in the workspace, replacing its content. Parent directories are created.",
    inputSchema: object({ path: str("File path"), content: str("The full new content") }),
  },
  {
    name: "edit_file",
    description:
      "Replace an exact string in a file. old_string must match exactly once unless replace_all is set; use it " +
      "for small edits instead of rewriting the whole file.",
    inputSchema: object(
      {
        path: str("File path"),
        old_string: str("Text to find"),
        new_string: str("Replacement text"),
        replace_all: bool("Replace every occurrence"),
      },
      ["path", "old_string", "new_string"],
    ),
  },
];

export const pluginTools: LabelledTool[] = [
  {
    name: "notebook_add",
    description: "记一条笔记：把用户要求记住的内容保存到当前频道的笔记本，可以附带标签。",
    inputSchema: object({ content: str("笔记内容"), tags: list(str("标签"), "标签列表") }, ["content"]),
  },
  {
    name: "notebook_search",
    description: "按关键词或标签搜索笔记本里已保存的笔记，返回匹配的笔记及其编号。",
    inputSchema: object({ keyword: str("关键词"), tag: str("标签") }, []),
  },
  {
    name: "notebook_delete",
    description: "根据编号删除一条笔记。",
    inputSchema: object({ id: int("笔记编号") }),
  },
  {
    name: "save_text_file",
    description: "把文本内容写入机器人数据目录下的文件，文件不存在时自动创建，已存在时覆盖。",
    inputSchema: object({ filename: str("文件名"), text: str("要写入的内容"), append: bool("追加而不是覆盖") }, ["filename", "text"]),
  },
  {
    name: "schedule_reminder",
    description: "设置定时提醒：到指定时间在频道里发送提醒消息，支持 cron 表达式实现周期提醒。",
    inputSchema: object(
      { time: str("触发时间，ISO 8601 或 cron 表达式"), content: str("提醒内容"), channelId: str("目标频道 ID") },
      ["time", "content"],
    ),
  },
  {
    name: "cancel_reminder",
    description: "取消一个已经设置的定时提醒。",
    inputSchema: object({ reminderId: str("提醒 ID") }),
  },
  {
    name: "weather_query",
    description: "查询城市的实时天气和未来三天的天气预报，包括温度、湿度、风力和空气质量。",
    inputSchema: object({ city: str("城市名，例如 北京"), days: int("预报天数 1-3") }, ["city"]),
  },
  {
    name: "translate_text",
    description: "翻译文本，自动识别源语言，支持中文、英文、日文、韩文等常见语言互译。",
    inputSchema: object({ text: str("原文"), target: oneOf(["zh", "en", "ja", "ko", "fr", "de"], "目标语言") }),
  },
  {
    name: "draw_image",
    description: "根据提示词用 AI 绘图生成一张图片，返回图片 URL。",
    inputSchema: object(
      { prompt: str("画面描述"), negative_prompt: str("不想出现的内容"), size: oneOf(["512x512", "1024x1024"], "尺寸") },
      ["prompt"],
    ),
  },
  {
    name: "bilibili_video_info",
    description: "根据 BV 号或链接获取哔哩哔哩视频的标题、UP 主、播放量和简介。",
    inputSchema: object({ bvid: str("BV 号或视频链接") }),
  },
  {
    name: "music_search",
    description: "在网易云音乐搜索歌曲，返回歌名、歌手和可分享的音乐卡片。",
    inputSchema: object({ keyword: str("歌名或歌手"), limit: int("返回数量") }, ["keyword"]),
  },
  {
    name: "dice_roll",
    description: "掷骰子，支持 2d6、1d100 这类表达式，返回每颗骰子的点数和总和。",
    inputSchema: object({ expression: str("骰子表达式，如 2d6+3") }),
  },
  {
    name: "user_sign_in",
    description: "每日签到，给用户增加积分并返回连续签到天数。",
    inputSchema: object({ userId: str("用户 ID") }),
  },
  {
    name: "points_query",
    description: "查询用户当前的积分余额和排行榜名次。",
    inputSchema: object({ userId: str("用户 ID"), top: num("同时返回排行榜前几名") }, ["userId"]),
  },
];
