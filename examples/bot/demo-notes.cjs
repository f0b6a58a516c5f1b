// The demo's notes (spec 00 §6 setup): an Ishiki extension that puts seed 000's notes file at
// /home/workspace/notes.txt in every runtime's workspace, once, so the journey finds it where the seed puts it
// whichever sandbox user or channel starts the runtime. It contributes no tools and no instructions.
const { existsSync } = require("node:fs");
const { copyFile, mkdir } = require("node:fs/promises");
const { join } = require("node:path");
const { Service } = require("koishi");
const { Extension } = require("koishi-plugin-ishiki");

class DemoNotes extends Extension {
  constructor(ctx) {
    super(ctx, "demo-notes");
  }

  async [Service.invoke](host) {
    const workspace = join(host.home, "workspace");
    const notes = join(workspace, "notes.txt");
    // Only a missing file is written: what the model or the user changed stays.
    if (!existsSync(notes)) {
      await mkdir(workspace, { recursive: true });
      await copyFile(join(__dirname, "notes.txt"), notes);
    }
    return undefined;
  }
}

module.exports = DemoNotes;
