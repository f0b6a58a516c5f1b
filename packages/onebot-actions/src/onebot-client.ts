import type { Context } from "koishi";
import { ToolError } from "koishi-plugin-ishiki";

/** The raw response of a OneBot v11 action (`bot.internal._request`). */
interface OneBotResponse {
  status: string;
  retcode: number;
  data: unknown;
  message?: string;
  wording?: string;
}

type RawRequest = (action: string, params: Record<string, unknown>) => Promise<OneBotResponse>;

/** A failed action with its retcode, so `onebot://` can tell not-found from other failures (OB-22). */
export class OneBotActionError extends ToolError {
  public constructor(
    public readonly action: string,
    public readonly retcode: number | undefined,
    reason: string,
  ) {
    super(`OneBot action ${action} failed: ${reason}`);
  }
}

/** Calls OneBot actions of one account through the adapter's raw action call (OB-2). */
export class OneBotClient {
  public constructor(
    private readonly ctx: Context,
    public readonly selfId: string,
    private readonly timeoutMs: number,
  ) {}

  /** `status: "ok"` yields `data`; anything else, a timeout or an offline account throws `OneBotActionError`. */
  public async call(action: string, params: Record<string, unknown>): Promise<unknown> {
    const request = this.request();
    if (!request) throw new OneBotActionError(action, undefined, `account onebot:${this.selfId} is offline`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new OneBotActionError(action, undefined, `timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const response = await Promise.race([request(action, params), timeout]);
      if (response?.status === "ok") return response.data;
      const message = response?.message || response?.wording || response?.status || "no response";
      throw new OneBotActionError(action, response?.retcode, `retcode ${response?.retcode}: ${message}`);
    } catch (error) {
      if (error instanceof OneBotActionError) throw error;
      throw new OneBotActionError(action, undefined, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private request(): RawRequest | undefined {
    const bot = this.ctx.bots.find((candidate) => candidate.platform === "onebot" && candidate.selfId === this.selfId);
    const internal = (bot as { internal?: { _request?: RawRequest } } | undefined)?.internal;
    return internal?._request?.bind(internal);
  }
}
