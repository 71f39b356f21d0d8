// Driving VS Code's workbench (code-server in chromium) with playwright-core: opening files,
// commands, notebook toolbar and cells, and reading what the output webviews show.

export class Workbench {
  constructor(page) {
    this.page = page;
  }

  async waitReady() {
    await this.page.locator(".monaco-workbench").waitFor({ timeout: 90_000 });
    // The explorer lists the folder once the workbench has really started.
    await this.page.locator(".explorer-folders-view .monaco-list-row").first().waitFor({ timeout: 60_000 });
  }

  /** Quick Open (Ctrl+P) a workspace file by name. */
  async openFile(name) {
    const page = this.page;
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(name);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press("Enter");
  }

  /** Opens a *.nb.ts file and waits for its notebook editor (the serializer ran). */
  async openNotebook(name) {
    await this.openFile(name);
    await this.page.locator(`.notebookOverlay`).last().waitFor({ timeout: 30_000 });
    await this.page.locator(".notebookOverlay .cell-list-container .code-cell-row").first().waitFor({ timeout: 20_000 });
  }

  /** Closes every editor; a notebook left dirty by a failed check is closed without saving. */
  async closeAllEditors() {
    await this.command("View: Close All Editors");
    const dontSave = this.page.locator(".monaco-dialog-box .monaco-button", { hasText: "Don't Save" });
    if (await dontSave.isVisible({ timeout: 1_000 }).catch(() => false)) await dontSave.click();
    await this.page.waitForTimeout(300);
  }

  /** Runs a command from the palette (F1) by its title. */
  async command(title) {
    const page = this.page;
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 10_000 });
    await input.fill(">" + title);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press("Enter");
  }

  toolbarAction(label) {
    return this.page.locator(".notebookOverlay .notebook-toolbar-container .action-item", { hasText: label }).first();
  }

  async runAll() {
    await this.toolbarAction("Run All").click();
  }

  /** The visible code cells' editors, in order. */
  codeCellEditor(i) {
    return this.page.locator(".notebookOverlay .cell-list-container .code-cell-row").nth(i).locator(".monaco-editor").first();
  }

  /** Puts the cursor in code cell i at the end of its text. */
  async focusCellEnd(i) {
    await this.codeCellEditor(i).click();
    await this.page.keyboard.press("Control+End");
  }

  /** Runs code cell i on its own (Ctrl+Enter in its editor). */
  /** Runs code cell i on its own, with the run button beside it. */
  async runCell(i) {
    const row = this.page.locator(".notebookOverlay .cell-list-container .code-cell-row").nth(i);
    await row.scrollIntoViewIfNeeded();
    await row.hover();
    await row.locator(".run-button-container .action-item").first().click();
  }

  /** Scrolls the notebook to its end: cells far below are not rendered, nor are their outputs. */
  async scrollToEnd() {
    await this.page.locator(".notebookOverlay .cell-list-container").last().hover();
    for (let i = 0; i < 8; i++) {
      await this.page.mouse.wheel(0, 600);
      await this.page.waitForTimeout(100);
    }
  }

  /** The text of every webview frame: the notebook outputs. (The main frame, which also shows
   * the cells' sources and the notifications, is left out.) */
  async frameTexts() {
    const texts = [];
    for (const frame of this.page.frames()) {
      if (frame === this.page.mainFrame()) continue;
      try {
        texts.push(await frame.evaluate(() => document.body?.innerText ?? ""));
      } catch {
        // a frame that went away mid-read
      }
    }
    return texts;
  }

  /** Waits until some frame's text satisfies `test`; returns that text. */
  async waitForFrameText(test, { timeout = 30_000, what = String(test), allowHostDeath = false } = {}) {
    const deadline = Date.now() + timeout;
    let last = [];
    while (Date.now() < deadline) {
      last = await this.frameTexts();
      const hit = last.find((t) => (typeof test === "string" ? t.includes(test) : test(t)));
      if (hit !== undefined) return hit;
      // A dead engine host will not produce the output: say so now rather than at the timeout.
      const death = !allowHostDeath && last.find((t) => t.includes("EngineHostStopped"));
      if (death) throw new Error(`the engine host stopped while waiting for ${what}:\n${death.slice(0, 1200)}`);
      await this.page.waitForTimeout(150);
    }
    const outputs = last.filter((t) => t.trim()).map((t) => t.slice(0, 600)).join("\n---\n");
    throw new Error(`no output showed ${what} within ${timeout} ms; the frames showed:\n${outputs}`);
  }

  /** Waits for a canvas matching `selector` in some frame; returns its size and whether it has ink. */
  async waitForCanvas(selector, timeout = 30_000) {
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline) {
      for (const frame of this.page.frames()) {
        try {
          const info = await frame.evaluate((sel) => {
            const c = document.querySelector(sel);
            if (!c) return null;
            const ctx = c.getContext("2d");
            const { data } = ctx.getImageData(0, 0, c.width, c.height);
            let opaque = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) opaque++;
            return { width: c.width, height: c.height, opaque };
          }, selector);
          if (info) return info;
        } catch {
          // frame gone or not scriptable yet
        }
      }
      await this.page.waitForTimeout(200);
    }
    throw new Error(`no ${selector} canvas appeared in the notebook outputs within ${timeout} ms`);
  }

  async notificationText(test, timeout = 20_000) {
    const toast = this.page.locator(".notifications-toasts .notification-list-item-message", { hasText: test }).first();
    await toast.waitFor({ timeout });
    return (await toast.innerText()).trim();
  }

  async statusBarText(test, timeout = 20_000) {
    const item = this.page.locator(".statusbar-item", { hasText: test }).first();
    await item.waitFor({ timeout });
    return (await item.innerText()).trim();
  }
}
