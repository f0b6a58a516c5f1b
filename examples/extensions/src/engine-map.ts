export {};

declare module "koishi-plugin-ishiki" {
  interface ContextEngines {
    briefing: { filename: string };
  }
  interface WakeupEngines {
    rhythm: { everySeconds: number };
  }
  interface ToolcallEngines {
    grounding: { instruction: string };
  }
}
