import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.js";
import projects from "./vitest.workspace.js";

export default defineConfig({
  test: {
    projects,
    reporters: ["default", new SummaryReporter()],
    // A passing test prints nothing: its console output (Koishi's logs included) is shown only when it fails.
    silent: "passed-only",
    // Slow tests are many here (real servers, real apps); listing each one would drown the summary.
    slowTestThreshold: 5_000,
  },
});
