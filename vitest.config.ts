import { defineConfig } from "vitest/config";
import SummaryReporter from "./scripts/summary-reporter.js";
import projects from "./vitest.workspace.js";

export default defineConfig({
  test: {
    projects,
    reporters: ["default", new SummaryReporter()],
  },
});
