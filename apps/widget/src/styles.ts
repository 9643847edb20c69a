/**
 * Styles live inside the shadow root: the host page's CSS cannot reach in and ours cannot leak
 * out. `:host { all: initial }` stops inherited fonts and colours. Under 480 px wide the panel
 * fills the screen (docs/widget-script.md: usable on a phone-sized screen); motion stops for visitors
 * who ask for reduced motion. Inside the panel every side is a logical one (inline-start/end), so
 * `dir="rtl"` on the root mirrors it (docs/languages.md "Widget"); the launcher's and the panel's
 * corner stay physical: the owner chose them for their page.
 */
export const STYLES = `
:host{all:initial}
*{box-sizing:border-box}
[hidden]{display:none!important}
.c{display:contents}
.root{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;position:fixed;bottom:20px;right:20px;z-index:2147483000}
.root.left{right:auto;left:20px}
button,input,textarea{font:inherit;color:inherit}
button{cursor:pointer}
:focus-visible{outline:3px solid var(--p);outline-offset:2px}
.launcher{width:56px;height:56px;border-radius:50%;border:0;background:var(--p);color:var(--pt);box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center;position:relative}
.launcher:focus-visible{outline-color:#111827}
.badge{position:absolute;top:2px;inset-inline-end:2px;width:14px;height:14px;border-radius:50%;background:#dc2626;border:2px solid #fff}
.panel{position:absolute;bottom:72px;right:0;width:380px;height:min(620px,calc(100vh - 110px));background:#fff;border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.22);display:flex;flex-direction:column;overflow:hidden}
.left .panel{right:auto;left:0}
header{background:var(--p);color:var(--pt);padding:12px;padding-inline-start:16px;display:flex;align-items:center;gap:8px}
header h2{font-size:16px;font-weight:600;margin:0;flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
header button{background:transparent;border:1px solid currentColor;border-radius:8px;color:inherit;padding:4px 10px;font-size:13px}
header .x{border:0;padding:4px;display:grid;place-items:center}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px;overscroll-behavior:contain}
.msg{max-width:85%;padding:9px 12px;border-radius:14px;word-wrap:break-word;overflow-wrap:anywhere}
.msg.user{align-self:flex-end;background:var(--p);color:var(--pt);border-end-end-radius:4px;white-space:pre-wrap}
.msg.bot{align-self:flex-start;background:#f3f4f6;border-end-start-radius:4px}
.msg p,.msg ul,.msg ol,.msg pre,.msg blockquote{margin:0 0 8px}
.msg>div>:last-child{margin-bottom:0}
.msg ul,.msg ol{padding-inline-start:20px}
.msg pre{background:#111827;color:#f9fafb;padding:8px;border-radius:6px;overflow-x:auto;font-size:13px}
.msg code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
.msg blockquote{border-inline-start:3px solid #d1d5db;padding-inline-start:8px;color:#4b5563}
.msg a{color:inherit;text-decoration:underline}
.who{font-size:12px;font-weight:600;color:#4b5563;margin-bottom:2px}
.ref{font-size:.75em;color:#4b5563}
.msg .sources{margin:8px 0 0;padding:6px 0 0;border-top:1px solid #e5e7eb;font-size:13px;list-style:none}
.sources li{margin:2px 0}
.note{font-size:13px;color:#6b7280;margin-top:6px}
.user .note{color:inherit;opacity:.85;margin-top:4px}
.rate{display:flex;gap:4px;margin-top:6px}
.rate button{background:transparent;border:1px solid #d1d5db;border-radius:6px;padding:3px 6px;color:#6b7280;display:grid;place-items:center}
.rate button[aria-pressed=true]{background:var(--p);color:var(--pt);border-color:var(--p)}
.rate button[aria-disabled=true]{cursor:default}
.typing{align-self:flex-start;background:#f3f4f6;border-radius:14px;padding:12px 14px;display:flex;gap:4px;align-items:center}
.typing i{width:7px;height:7px;border-radius:50%;background:#9ca3af;animation:b 1.2s infinite}
.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}
.person{padding:8px 16px;font-size:13px;background:#f3f4f6;color:#374151;border-bottom:1px solid #e5e7eb}
.away{margin:0}
.typing span{font-size:13px;color:#6b7280;margin-inline-start:6px}
@keyframes b{0%,60%,100%{opacity:.3}30%{opacity:1}}
.card{border:1px solid #e5e7eb;border-radius:12px;padding:12px;display:flex;flex-direction:column;gap:8px}
.card h3{font-size:14px;margin:0}
.card .f{display:flex;flex-direction:column;gap:3px}
.card label{font-size:13px;font-weight:500}
.card input{border:1px solid #d1d5db;border-radius:8px;padding:7px 9px;font-size:16px}
.card input[aria-invalid=true]{border-color:#dc2626}
.card textarea{flex:none;min-height:60px;resize:vertical}
fieldset{border:0;margin:0;padding:0;min-width:0}
legend{font-size:14px;font-weight:600;padding:0;margin-bottom:8px}
.scale{display:flex;gap:6px}
.scale label{flex:1;position:relative;font-weight:400}
.scale input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}
.scale .o{display:flex;flex-direction:column;align-items:center;gap:2px;border:1px solid #6b7280;border-radius:8px;padding:6px 2px;font-size:11px;color:#374151;text-align:center}
.scale b{font-size:16px}
.scale input:checked+.o{background:var(--p);color:var(--pt);border-color:var(--p)}
.scale input:focus-visible+.o{outline:3px solid var(--p);outline-offset:2px}
.err{color:#b91c1c;font-size:12px}
.card p{margin:0}
.err:empty{display:none}
.row{display:flex;gap:8px}
.btn{background:var(--p);color:var(--pt);border:0;border-radius:8px;padding:8px 14px;font-weight:600}
.btn.ghost{background:transparent;color:#374151;border:1px solid #d1d5db}
.alert{margin:0 12px 8px;padding:8px 10px;border-radius:8px;background:#fef3c7;color:#78350f;font-size:13px;display:flex;gap:8px;align-items:center}
.alert span{flex:1}
.alert button{background:transparent;border:1px solid currentColor;border-radius:6px;padding:2px 8px;color:inherit}
form.compose{display:flex;gap:8px;padding:10px 12px;border-top:1px solid #e5e7eb;align-items:flex-end}
textarea{flex:1;resize:none;border:1px solid #d1d5db;border-radius:10px;padding:8px 10px;font-size:16px;max-height:120px;min-height:40px}
[dir=rtl] .send svg{transform:scaleX(-1)}
.send{width:40px;height:40px;border-radius:10px;border:0;background:var(--p);color:var(--pt);display:grid;place-items:center;flex:none}
.send:disabled,.btn:disabled{opacity:.5;cursor:default}
.ended{padding:12px;border-top:1px solid #e5e7eb;text-align:center}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:480px){.root.open .launcher{display:none}.panel{position:fixed;inset:0;width:auto;height:auto;border-radius:0}}
@media (prefers-reduced-motion:reduce){.typing i{animation:none;opacity:.6}}
`;
