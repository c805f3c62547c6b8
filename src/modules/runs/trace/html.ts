// The trace as one HTML file a person can keep or send (decisions.md §17): the timeline, a
// filmstrip and each step's details, with every frame inline as a data: URI and the script
// and style inline too. Its Content-Security-Policy allows no address at all, so the page
// opened anywhere, offline, makes no request. The step list is written out as HTML, so the
// steps read even with scripts off; the script adds the filmstrip and the selected step's
// frames. Everything from the trace is escaped: a step's text is the macro's, not ours.
import type { RunTraceRecord } from './schemas.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: no `</script>` or `<!--` can close it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1b1f;background:#fafafa}
header{padding:12px 16px;background:#fff;border-bottom:1px solid #ddd}
h1{font-size:18px;margin:0 0 4px}
main{display:grid;grid-template-columns:minmax(280px,1fr) 2fr;gap:12px;padding:12px 16px}
ol{list-style:none;margin:0;padding:0;max-height:80vh;overflow:auto;background:#fff;border:1px solid #ddd}
li button{display:block;width:100%;text-align:left;border:0;border-bottom:1px solid #eee;background:none;padding:6px 8px;font:inherit;cursor:pointer}
li button[aria-current=true]{background:#e8f0fe}
.error{color:#b00020}
.film{display:flex;gap:4px;overflow-x:auto;padding:8px 16px}
.film img{height:120px;border:2px solid transparent}
.film img.on{border-color:#1a73e8}
.frames{display:flex;gap:12px;flex-wrap:wrap}
.frames figure{margin:0}
.frames img{max-height:60vh;border:1px solid #ccc}
pre{white-space:pre-wrap;background:#f1f1f1;padding:8px}
`;

const SCRIPT = `
(function(){
  var trace=JSON.parse(document.getElementById('trace').textContent);
  var frames=JSON.parse(document.getElementById('frames').textContent);
  var src=function(id){return 'data:image/jpeg;base64,'+frames[id];};
  var details=document.getElementById('details');
  var film=document.getElementById('film');
  var order=[];
  trace.steps.forEach(function(s){[s.frame_before,s.frame_after].forEach(function(id){if(id&&frames[id]&&order.indexOf(id)<0)order.push(id);});});
  order.forEach(function(id){var img=document.createElement('img');img.src=src(id);img.alt='frame '+id;img.dataset.frame=id;film.appendChild(img);});
  function figure(label,id){
    var f=document.createElement('figure');var c=document.createElement('figcaption');c.textContent=label;f.appendChild(c);
    if(id&&frames[id]){var img=document.createElement('img');img.src=src(id);img.alt=label;f.appendChild(img);}else{var p=document.createElement('p');p.textContent='no frame';f.appendChild(p);}
    return f;
  }
  function show(seq){
    var s=trace.steps.find(function(x){return x.seq===seq;});if(!s)return;
    document.querySelectorAll('li button').forEach(function(b){b.setAttribute('aria-current',String(Number(b.dataset.seq)===seq));});
    film.querySelectorAll('img').forEach(function(img){img.className=(img.dataset.frame===s.frame_before||img.dataset.frame===s.frame_after)?'on':'';});
    details.textContent='';
    var h=document.createElement('h2');h.textContent='Step '+s.seq+': '+s.action+(s.outcome==='error'?' (failed)':'');details.appendChild(h);
    var box=document.createElement('div');box.className='frames';box.appendChild(figure('Before',s.frame_before));box.appendChild(figure('After',s.frame_after));details.appendChild(box);
    var pre=document.createElement('pre');pre.textContent=JSON.stringify(s,null,2);details.appendChild(pre);
  }
  document.querySelectorAll('li button').forEach(function(b){b.addEventListener('click',function(){show(Number(b.dataset.seq));});});
  var first=trace.failed_step!==undefined?trace.failed_step:(trace.steps.length?trace.steps[trace.steps.length-1].seq:undefined);
  if(first!==undefined)show(first);
})();
`;

function stepLine(step: RunTraceRecord['steps'][number], failed: boolean): string {
  const seconds = (step.at_ms / 1000).toFixed(1);
  const what = `${step.seq}. ${step.action}${step.block_path ? ` (${step.block_path})` : ''}`;
  const error = step.error ? ` <span class="error">${escapeHtml(`${step.error.code}: ${step.error.message}`)}</span>` : '';
  const marker = failed ? ' <strong class="error">(the step the run failed on)</strong>' : '';
  return `<li><button type="button" data-seq="${step.seq}" aria-current="false"><span>${escapeHtml(what)}</span> <small>+${seconds} s, ${step.duration_ms} ms, ${step.outcome}</small>${marker}${error}</button></li>`;
}

export function traceHtml(trace: RunTraceRecord, frames: Map<string, Buffer>): string {
  const named = new Set(trace.steps.flatMap((s) => [s.frame_before, s.frame_after]).filter((id): id is string => Boolean(id)));
  if (trace.final_frame) named.add(trace.final_frame);
  const inline = Object.fromEntries([...named].filter((id) => frames.has(id)).map((id) => [id, frames.get(id)!.toString('base64')]));
  const title = `Run trace ${trace.execution_id}`;
  const summary = `${trace.status}, ${trace.steps.length} steps, started ${trace.started_at}${trace.ended_at ? `, ended ${trace.ended_at}` : ''}${trace.failed_step !== undefined ? `, failed at step ${trace.failed_step}` : ''}${trace.frames_capped ? ', frames capped' : ''}`;
  const finalFrame = trace.final_frame && inline[trace.final_frame] ? `<figure><figcaption>The screen when the run ended</figcaption><img alt="final frame" style="max-height:40vh" src="data:image/jpeg;base64,${inline[trace.final_frame]}"></figure>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(summary)}</p>${trace.notes.map((n) => `<p class="error">${escapeHtml(n)}</p>`).join('')}</header>
<div class="film" id="film" aria-label="Filmstrip"></div>
<main><nav aria-label="Steps"><ol id="steps">${trace.steps.map((s) => stepLine(s, s.seq === trace.failed_step)).join('')}</ol></nav>
<section id="details" aria-live="polite"></section></main>
${finalFrame}
<script type="application/json" id="trace">${scriptJson(trace)}</script>
<script type="application/json" id="frames">${scriptJson(inline)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}
