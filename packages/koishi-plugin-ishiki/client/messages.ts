// The page's texts in the console's two languages; each component passes them to `useI18n`.
import enUS from "./locales/en-US.yml";
import zhCN from "./locales/zh-CN.yml";

export const messages = { "zh-CN": zhCN, "en-US": enUS };
