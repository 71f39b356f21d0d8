// The renderer's styles, in VS Code's theme colours.

export const STYLE = `
.glasstorch-tensor { font-family: var(--vscode-editor-font-family, monospace); font-size: 12px; color: var(--vscode-foreground); padding: 4px 0; }
.glasstorch-caption { opacity: 0.8; margin-bottom: 4px; }
.glasstorch-row { display: flex; align-items: flex-start; gap: 8px; }
.glasstorch-heatmap { image-rendering: pixelated; border: 1px solid var(--vscode-panel-border, #8884); }
.glasstorch-colourbar { display: flex; gap: 4px; }
.glasstorch-colourbar-labels { display: flex; flex-direction: column; justify-content: space-between; }
.glasstorch-axis { display: flex; justify-content: space-between; opacity: 0.8; }
.glasstorch-graph-button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 2px 8px; margin-bottom: 4px; cursor: pointer; font: inherit; }
.glasstorch-hover { margin-top: 4px; min-height: 1.4em; }
`;
