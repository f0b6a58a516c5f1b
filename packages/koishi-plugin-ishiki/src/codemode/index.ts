export { createCodemodeSandbox } from "./create-sandbox.js";
export { configureCodemodeWorkers, defaultCodemodeWorkers } from "./shared-pool.js";
export type {
  CodemodeCallableTool,
  CodemodeOutcome,
  CodemodeRunRequest,
  CodemodeSandbox,
  CodemodeSandboxOptions,
  CodemodeSandboxStats,
  CodemodeToolCall,
  JsonValue,
} from "./sandbox.js";
export { DEFAULT_CODEMODE_LIMITS, resolveCodemodeLimits, type CodemodeLimits } from "./limits.js";
export { codemodeInputSchema, MAX_PROGRAM_LENGTH, type CodemodeInput } from "./input-schema.js";
export { codemodeErrors, formatConsoleOutput, withConsoleOutput } from "./error-text.js";
export { codemodeDescription, type CodemodeDescriptionOptions } from "./description.js";
export { toolDeclaration, toolDeclarations, type CodemodeToolSignatureSource } from "./declaration.js";
export { schemaToType, type JsonSchema } from "./schema-type.js";
export { checkQuickJSLoads } from "./quickjs-load.js";
