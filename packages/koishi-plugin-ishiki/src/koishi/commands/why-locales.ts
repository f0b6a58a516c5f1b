// zh-CN and en-US texts of `ishiki.why`, `ishiki.mute`, `ishiki.unmute` and `ishiki.preview` (issue 22). Rule
// names and engine details stay as the engines write them: they are the profile's own keys (`keywords`, `cooldownMs`).
export const whyLocales = {
  "zh-CN": {
    commands: {
      ishiki: {
        messages: {
          unclaimed: "此频道没有被任何已激活的 profile 认领。",
        },
      },
      "ishiki.why": {
        description: "查看机器人为什么回复或没有回复本频道最近的消息",
        messages: {
          empty: "此频道还没有记录的消息。",
          header: "最近 {0} 条消息（{1}）：",
          muted: "本频道已静音，直到 {0}。",
          "muted-forever": "本频道已静音，直到 ishiki.unmute。",
          message: "#{id} {time} {author}：{text}",
          decision: "  · {engine}：{outcome}，规则 {rule}{detail}",
          "outcome-wake": "唤醒",
          "outcome-held": "暂缓",
          "outcome-quiet": "不唤醒",
          "no-decision": "  · 没有记录的决定（决定只保存在内存中，运行时启动之前的消息没有记录）",
          "no-turn": "  → 没有轮次处理这条消息",
          "turn-cost": "    估算费用 {0}（按模型声明的价格）",
          "turn-woke": "  → 唤醒了轮次 {id}：{steps} 步，工具 {tools}，tokens 输入 {input} / 输出 {output}（缓存命中 {cached}）",
          "turn-joined": "  → 并入了正在运行的轮次 {id}：{steps} 步，工具 {tools}，tokens 输入 {input} / 输出 {output}（缓存命中 {cached}）",
          "turn-failed": "  → 该轮次失败：{0}",
        },
      },
      "ishiki.mute": {
        description: "让机器人在本频道保持安静（私聊也可以），可指定时长，例如 10m、2h",
        messages: {
          invalid: "无法识别时长“{0}”，请使用 90s、10m、2h、1d 或 1h30m 这样的写法（最长一年）。",
          muted: "好的，本频道静音到 {0}。发送 ishiki.unmute 可提前解除。",
          "muted-forever": "好的，本频道已静音，直到发送 ishiki.unmute。",
        },
      },
      "ishiki.unmute": {
        description: "解除本频道的静音",
        messages: { unmuted: "已解除本频道的静音。", "not-muted": "本频道没有被静音。" },
      },
      "ishiki.preview": {
        description: "用另一套唤醒设置回放本频道最近的消息，看看机器人会在哪些消息上醒来（不调用模型）",
        options: { days: "回放最近多少天（默认 7）", modelCalls: "允许 judge 引擎调用模型的次数（默认 0：只按规则）", limit: "最多列出多少条不同之处（默认 10）" },
        messages: {
          "bad-json": "设置需要是一个 JSON 对象，例如 {\"engine\":\"standard\",\"standard\":{\"keywords\":[\"开会\"]}}：{0}",
          "no-engine": "没有名为 {0} 的唤醒引擎。",
          invalid: "设置无效：{0}",
          empty: "最近 {0} 天本频道没有记录的消息。",
          summary: "回放最近 {days} 天的 {messages} 条消息（引擎 {engine}）：新设置会唤醒 {would} 次，实际唤醒 {woke} 次；{differ} 条消息结果不同。{calls}",
          calls: "使用了 {0} 次模型调用。",
          "would-only": "+ 新设置会唤醒：#{id} {time} {author}：{text}{reason}",
          "woke-only": "- 新设置不会唤醒（实际唤醒了）：#{id} {time} {author}：{text}{reason}",
          more: "……还有 {0} 条不同之处。",
        },
      },
    },
  },
  "en-US": {
    commands: {
      ishiki: {
        messages: {
          unclaimed: "No active profile claims this channel.",
        },
      },
      "ishiki.why": {
        description: "Why the bot answered or did not answer the last messages of this channel",
        messages: {
          empty: "No messages are recorded in this channel yet.",
          header: "The last {0} messages ({1}):",
          muted: "This channel is muted until {0}.",
          "muted-forever": "This channel is muted until ishiki.unmute.",
          message: "#{id} {time} {author}: {text}",
          decision: "  · {engine}: {outcome}, rule {rule}{detail}",
          "outcome-wake": "wake",
          "outcome-held": "held",
          "outcome-quiet": "no wake",
          "no-decision": "  · no decision recorded (decisions are kept in memory; messages before the runtime started have none)",
          "no-turn": "  → no turn handled this message",
          "turn-cost": "    estimated cost {0} (at the models' declared prices)",
          "turn-woke": "  → woke turn {id}: {steps} steps, tools {tools}, tokens in {input} / out {output} (cache read {cached})",
          "turn-joined": "  → joined the running turn {id}: {steps} steps, tools {tools}, tokens in {input} / out {output} (cache read {cached})",
          "turn-failed": "  → that turn failed: {0}",
        },
      },
      "ishiki.mute": {
        description: "Keep the bot quiet in this channel (private chats too), optionally for a while such as 10m or 2h",
        messages: {
          invalid: "Cannot read the duration \"{0}\": write it like 90s, 10m, 2h, 1d or 1h30m (at most a year).",
          muted: "OK, this channel is muted until {0}. Send ishiki.unmute to lift it earlier.",
          "muted-forever": "OK, this channel is muted until you send ishiki.unmute.",
        },
      },
      "ishiki.unmute": {
        description: "Lift the mute of this channel",
        messages: { unmuted: "This channel is no longer muted.", "not-muted": "This channel is not muted." },
      },
      "ishiki.preview": {
        description: "Replay this channel's recent messages with other wakeup settings and see where the bot would wake (no model calls)",
        options: { days: "Days to replay (default 7)", modelCalls: "Model calls the judge engine may make (default 0: rules only)", limit: "Differences to list at most (default 10)" },
        messages: {
          "bad-json": "The settings must be one JSON object, e.g. {\"engine\":\"standard\",\"standard\":{\"keywords\":[\"开会\"]}}: {0}",
          "no-engine": "There is no wakeup engine named {0}.",
          invalid: "Invalid settings: {0}",
          empty: "No messages are recorded in this channel in the last {0} days.",
          summary: "Replayed {messages} messages of the last {days} days (engine {engine}): the new settings wake {would} times, the bot woke {woke} times; {differ} messages differ. {calls}",
          calls: "{0} model calls used.",
          "would-only": "+ would wake: #{id} {time} {author}: {text}{reason}",
          "woke-only": "- would not wake (it did): #{id} {time} {author}: {text}{reason}",
          more: "… and {0} more differences.",
        },
      },
    },
  },
};
