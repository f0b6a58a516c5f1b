/** What a destructive call outside the allow rules returns while it waits for an approver (OB-15). */
export interface PendingApprovalResult {
  ok: false;
  status: "pending_approval";
  approvalId: string;
  /** ISO time after which the request expires unanswered. */
  expiresAt: string;
}

/** One waiting request, held in memory by the service: approvals expire on restart. */
export interface PendingApproval {
  id: string;
  /** `<platform>:<userId>` of those who may decide. */
  approvers: readonly string[];
  runtimeId: string;
  action: string;
  expiresAt: number;
  /** Runs the approved call; resolves to its data or rejects with its failure. */
  execute(): Promise<unknown>;
  /** Wakes the requesting runtime with the outcome. */
  wake(prompt: string): void;
  /** Logs a decision at info on the requesting runtime's logger (OB-17). */
  log(message: string): void;
}

/** Opens approval requests for one runtime's destructive calls. */
export interface ApprovalRequester {
  request(call: { action: string; params: Record<string, unknown>; target: string; execute: () => Promise<unknown> }): Promise<PendingApprovalResult>;
}
