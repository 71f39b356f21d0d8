// The HTML shell every Glasstorch webview gets: a strict Content-Security-Policy (nothing is
// allowed by default; scripts only with this page's nonce, styles and images only from the
// extension's own files), no remote content, and escaping for whatever text goes into the page.

/** A fresh nonce for one page (base64 of 16 random bytes). */
export function makeNonce(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** The policy: default-src 'none'; scripts only with the nonce; styles/images/fonts from the extension. */
export function buildCsp(cspSource: string, nonce?: string): string {
  const parts = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    nonce ? `script-src 'nonce-${nonce}'` : undefined,
    "base-uri 'none'",
    "form-action 'none'",
  ];
  return parts.filter((p) => p).join("; ") + ";";
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export interface PageOptions {
  title: string;
  cspSource: string;
  /** Stylesheet URIs (webview.asWebviewUri of the extension's files). */
  styles: string[];
  /** Script URIs; each gets the nonce. */
  scripts?: string[];
  nonce?: string;
  /** Body HTML, already escaped where it holds data. */
  body: string;
}

export function page(o: PageOptions): string {
  if (o.scripts?.length && !o.nonce) throw new Error("scripts need a nonce");
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(buildCsp(o.cspSource, o.scripts?.length ? o.nonce : undefined))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${escapeHtml(o.title)}</title>`,
    ...o.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    "</head>",
    "<body>",
    o.body,
    ...(o.scripts ?? []).map((src) => `<script nonce="${escapeHtml(o.nonce!)}" src="${escapeHtml(src)}"></script>`),
    "</body>",
    "</html>",
  ].join("\n");
}
