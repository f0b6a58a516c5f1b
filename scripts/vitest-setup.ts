// Runs before every test file of every project (vitest.shared.ts).
//
// AI SDK warnings (e.g. a provider's compatibility mode for an unknown model) go through process.emitWarning, past
// vitest's console capture, so even a passing test would print them; tests that care about warnings read the
// call's `warnings` instead.
(globalThis as Record<string, unknown>).AI_SDK_LOG_WARNINGS = false;
