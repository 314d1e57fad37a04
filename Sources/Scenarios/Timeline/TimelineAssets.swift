/// The style sheet and script of a timeline page (`TimelinePage`), inlined into every page.
enum TimelineAssets {
    static let css = #"""
body{font:13px/1.35 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#111;background:#fff}
header{padding:8px 12px;border-bottom:1px solid #ddd}h1{font-size:17px;margin:0 0 4px}h2{font-size:13px;margin:10px 0 4px}
#info{color:#333}#notes{color:#92400e}#notes div{margin-top:3px}
#toolbar{padding:6px 12px;border-bottom:1px solid #ddd;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
#toolbar button{font:inherit;padding:2px 8px}#toolbar label{white-space:nowrap}#toolbar input[type=text]{width:140px}
#toolbar details{position:relative}#toolbar details>div{position:absolute;z-index:5;background:#fff;border:1px solid #bbb;padding:6px;max-height:320px;overflow:auto;columns:2}
#main{display:flex;align-items:flex-start}#chart{flex:1;min-width:0;overflow:hidden;cursor:grab;user-select:none}
#side{width:330px;flex:none;border-left:1px solid #ddd;padding:0 10px 10px;max-height:calc(100vh - 110px);overflow:auto}
#findings{padding-left:20px;margin:0}#findings li{cursor:pointer;margin-bottom:6px}#findings li:hover{background:#fef3c7}
#findings .safety{color:#b91c1c}#findings .liveness{color:#b45309}#findings .server{color:#7e22ce}
#details{white-space:pre-wrap;font-size:12px;background:#f8fafc;border:1px solid #e5e7eb;padding:6px;min-height:40px}
#tip{position:fixed;pointer-events:none;background:#111827;color:#fff;padding:4px 7px;border-radius:4px;font-size:12px;white-space:pre;display:none;z-index:10;max-width:520px}
#legend span{display:inline-block;margin:0 10px 3px 0}#legend i{display:inline-block;width:18px;height:10px;margin-right:4px;vertical-align:middle}
svg text{font:11px system-ui,sans-serif}.lanelabel{font-weight:600;font-size:12px}.tick{fill:#374151}.gap{fill:#6b7280;font-size:10px}
.arrow{stroke-width:1.4}.arrow.reply{stroke-dasharray:4 2;stroke-width:1}.dim{opacity:.12}.hl{stroke-width:3.2!important;opacity:1}
.link{fill:none;stroke:#ea580c;stroke-width:1.6;stroke-dasharray:6 3}.mark{font-weight:700;font-size:12px}
.marker.finding path{stroke:#111;stroke-width:1}.flash path{stroke:#facc15!important;stroke-width:4!important}
"""#

    static let script = #"""
"use strict";
const D=JSON.parse(document.getElementById('data').textContent);
const COL={update:'#2563eb',delete:'#9333ea',confirm:'#16a34a',resend:'#ea580c',mixed:'#0d9488','':'#6b7280',push:'#db2777'};
const BAND={offline:'rgba(107,114,128,.30)',refusing:'rgba(220,38,38,.25)',blackholed:'rgba(17,24,39,.50)',hostile:'rgba(219,39,119,.30)',settle:'rgba(22,163,74,.10)'};
const SEV={safety:'#dc2626',liveness:'#f59e0b',server:'#a855f7'};
const NS='http://www.w3.org/2000/svg';
const lanes=D.lanes.map(l=>({i:l[0],name:l[1],kind:l[2]}));
const msgs=D.msgs.map(m=>({id:m[0],type:m[1],sender:m[2],seq:m[3],object:m[4]}));
const bands=D.bands.map(b=>({kind:b[0],lane:b[1],s:b[2],e:b[3],detail:b[4]}));
const spans=D.spans.map(s=>({lane:s[0],m:s[1],s:s[2],e:s[3],end:s[4],recv:s[5],id:s[6],row:s[7]}));
const arrows=D.arrows.map(a=>({id:a[0],dev:a[1],srv:a[2],ep:a[3],type:a[4],out:a[5],s:a[6],a:a[7],r:a[8],m:a[9],re:a[10],detail:a[11]}));
const byArrow={};arrows.forEach((a,i)=>byArrow[a.id]=i);
const links=D.links.map(l=>({from:l[0],to:l[1],detail:l[2]}));
const markers=D.markers.map(k=>({kind:k[0],lane:k[1],t:k[2],label:k[3],text:k[4],m:k[5],sev:k[6],object:k[7]}));
const aggs=D.aggregates.map(a=>({lane:a[0],s:a[1],e:a[2],what:a[3],n:a[4]}));
const laneName={};D.lanes.forEach(l=>laneName[l[0]]=l[1]);
const S={hidden:new Set(),types:new Set(['update','delete','confirm','resend','mixed','']),eps:new Set(['put','list','get','confirm','notify','push','other']),
  objects:null,compress:false,v0:0,v1:1,hl:new Set(),flash:-1};
// ---- time formats (natural units) ----
function fmtT(t,step){const neg=t<0;t=Math.abs(t);const d=Math.floor(t/864e11);let r=t-d*864e11;const h=Math.floor(r/36e11);r-=h*36e11;
  const mi=Math.floor(r/6e10);r-=mi*6e10;const sec=Math.floor(r/1e9);r-=sec*1e9;
  let s=(d?d+'d ':'')+h+':'+String(mi).padStart(2,'0')+':'+String(sec).padStart(2,'0');
  const dig=step>=1e9?0:Math.min(9,Math.ceil(-Math.log10(step/1e9)-1e-9));if(dig>0)s+='.'+String(Math.round(r)).padStart(9,'0').slice(0,dig);return (neg?'-':'')+s;}
function fmtD(n){if(n<1e3)return n+' ns';if(n<1e6)return +(n/1e3).toPrecision(3)+' µs';if(n<1e9)return +(n/1e6).toPrecision(3)+' ms';
  if(n<6e10)return +(n/1e9).toPrecision(3)+' s';if(n<36e11)return Math.floor(n/6e10)+' min '+Math.round((n%6e10)/1e9)+' s';
  if(n<864e11)return Math.floor(n/36e11)+' h '+Math.round((n%36e11)/6e10)+' min';return Math.floor(n/864e11)+' d '+Math.round((n%864e11)/36e11)+' h';}
const STEPS=[];for(let e=0;e<9;e++)for(const m of[1,2,5])STEPS.push(m*Math.pow(10,e));
[1e9,2e9,5e9,1e10,15e9,3e10,6e10,12e10,3e11,6e11,9e11,18e11,36e11,72e11,108e11,216e11,432e11,864e11,1728e11,6048e11,12096e11,30240e11].forEach(x=>STEPS.push(x));
function nice(x){for(const s of STEPS)if(s>=x)return s;return STEPS[STEPS.length-1];}
// ---- time mapping: linear, or idle stretches compressed ----
let T=[],U=[];
function buildMap(){const ts=[D.from,D.to];
  if(S.compress){bands.forEach(b=>{ts.push(b.s,b.e)});spans.forEach(s=>{ts.push(s.s,s.e)});arrows.forEach(a=>{ts.push(a.s,a.a);if(a.r>=0)ts.push(a.r)});markers.forEach(m=>ts.push(m.t));aggs.forEach(a=>ts.push(a.s,a.e));}
  const u=[...new Set(ts.filter(t=>t>=D.from&&t<=D.to))].sort((a,b)=>a-b);T=u;U=[0];
  const G=Math.max(1,(D.to-D.from)/80);for(let i=1;i<u.length;i++){const g=u[i]-u[i-1];U.push(U[i-1]+(S.compress&&g>G?G:g));}}
function seg(arr,v){let lo=0,hi=arr.length-2;while(lo<hi){const m=(lo+hi+1)>>1;if(arr[m]<=v)lo=m;else hi=m-1;}return Math.max(0,lo);}
function tu(t){if(T.length<2)return t-D.from;if(t<=T[0])return U[0]-(T[0]-t);if(t>=T[T.length-1])return U[U.length-1]+(t-T[T.length-1]);
  const i=seg(T,t);const dt=T[i+1]-T[i];return dt?U[i]+(t-T[i])*(U[i+1]-U[i])/dt:U[i];}
function ut(u){if(u<=U[0])return T[0]+(u-U[0]);if(u>=U[U.length-1])return T[T.length-1]+(u-U[U.length-1]);const i=seg(U,u);const du=U[i+1]-U[i];return du?T[i]+(u-U[i])*(T[i+1]-T[i])/du:T[i];}
const L=64,TOP=34,LH=44;let W=800;
function X(t){return L+(tu(t)-S.v0)/(S.v1-S.v0)*W;}
// ---- lanes ----
let Y={},H={},GAP={};
function layoutLanes(){Y={};H={};GAP={};let y=TOP+4;const rows={};spans.forEach(s=>rows[s.lane]=Math.max(rows[s.lane]||0,s.row+1));
  let prevKind=null;for(const l of lanes){if(S.hidden.has(l.i))continue;if(prevKind&&prevKind!==l.kind)y+=10;prevKind=l.kind;
    const r=rows[l.i]||0;const h=l.kind==='server'?Math.max(LH,16+Math.min(4*r,110)):LH;GAP[l.i]=r?Math.min(4,(h-16)/r):4;Y[l.i]=y;H[l.i]=h;y+=h;}return y+8;}
function yMid(l){return Y[l]+H[l]/2;}
function el(tag,attrs,parent,text){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;parent.appendChild(e);return e;}
function msgShown(ids){if(!S.objects)return true;return ids.some(i=>S.objects.has(msgs[i].object));}
function arrowShown(a){return Y[a.dev]!==undefined&&Y[a.srv]!==undefined&&S.types.has(a.ep==='push'?'':a.type)&&S.eps.has(a.ep)&&(!S.objects||msgShown(a.m));}
function spanShown(s){return Y[s.lane]!==undefined&&S.types.has(msgs[s.m].type)&&(!S.objects||S.objects.has(msgs[s.m].object));}
function visible(a,b){const x0=X(a),x1=X(b);return x1>=L-2&&x0<=L+W+2;}
function hlCls(ids){if(!S.hl.size)return '';return ids.some(i=>S.hl.has(i))?' hl':' dim';}
function draw(){const svg=document.getElementById('svg');const box=document.getElementById('chart');W=Math.max(300,box.clientWidth-L-40);
  const height=layoutLanes();svg.setAttribute('width',L+W+36);svg.setAttribute('height',height);svg.textContent='';
  const defs=el('defs',{},svg);for(const k in COL){const mk=el('marker',{id:'h'+(k||'none'),viewBox:'0 0 8 8',refX:7,refY:4,markerWidth:7,markerHeight:7,orient:'auto-start-reverse'},defs);el('path',{d:'M0,0L8,4L0,8z',fill:COL[k]},mk);}
  el('clipPath',{id:'clip'},defs).appendChild(Object.assign(document.createElementNS(NS,'rect'),{})).setAttribute('x',L);
  const cr=defs.querySelector('#clip rect');cr.setAttribute('y',0);cr.setAttribute('width',W);cr.setAttribute('height',height);
  const gl=el('g',{id:'lanes'},svg);
  lanes.forEach(l=>{if(Y[l.i]===undefined)return;const g=el('g',{class:'lane','data-lane':l.name,'data-k':'lane','data-i':l.i},gl);
    el('rect',{x:L,y:Y[l.i],width:W,height:H[l.i],fill:l.kind==='server'?'#f8fafc':'#fff',stroke:'#e5e7eb'},g);
    el('text',{x:6,y:yMid(l.i)+4,class:'lanelabel'},g,l.name);el('line',{x1:L,x2:L+W,y1:yMid(l.i),y2:yMid(l.i),stroke:'#d1d5db'},g);});
  const body=el('g',{'clip-path':'url(#clip)'},svg);
  // settle and lane bands
  const gb=el('g',{id:'bands'},body);bands.forEach((b,i)=>{if(!visible(b.s,b.e))return;const x0=Math.max(L-2,X(b.s)),x1=Math.min(L+W+2,X(b.e));
    if(b.lane<0){el('rect',{class:'band band-'+b.kind,x:x0,y:TOP,width:Math.max(1,x1-x0),height:height-TOP,fill:BAND[b.kind],'data-k':'band','data-i':i},gb);
      el('text',{x:x0+4,y:height-4,fill:'#15803d'},gb,'settle');return;}
    if(Y[b.lane]===undefined)return;el('rect',{class:'band band-'+b.kind,x:x0,y:Y[b.lane]+1,width:Math.max(1.5,x1-x0),height:H[b.lane]-2,fill:BAND[b.kind],'data-k':'band','data-i':i},gb);});
  // aggregates
  const ga=el('g',{id:'aggregates'},body);let amax=1;aggs.forEach(a=>amax=Math.max(amax,a.n));aggs.forEach((a,i)=>{if(Y[a.lane]===undefined||!visible(a.s,a.e))return;
    const h=Math.max(2,(H[a.lane]-4)*a.n/amax);el('rect',{class:'aggregate',x:X(a.s),y:Y[a.lane]+H[a.lane]-2-h,width:Math.max(1,X(a.e)-X(a.s)-1),height:h,fill:'rgba(75,85,99,.35)','data-k':'agg','data-i':i},ga);});
  // share spans
  const gs=el('g',{id:'spans'},body);spans.forEach((s,i)=>{if(!spanShown(s)||!visible(s.s,s.e))return;const y=Y[s.lane]+8+GAP[s.lane]*s.row;
    const c=COL[msgs[s.m].type]||COL[''];const x0=X(s.s),x1=Math.max(X(s.e),x0+1.5);
    el('line',{class:'span'+hlCls([s.m]),x1:x0,x2:x1,y1:y,y2:y,stroke:c,'data-k':'span','data-i':i,opacity:s.recv?0.6:0.9,'stroke-width':Math.max(1,Math.min(3,GAP[s.lane]))},gs);
    if(s.end==='restart')el('text',{x:x1-4,y:y+4,class:'mark',fill:'#dc2626'},gs,'×');
    else if(s.end==='ttl'||s.end==='replaced')el('line',{x1:x1,x2:x1,y1:y-3,y2:y+3,stroke:c},gs);});
  // arrows
  const gr=el('g',{id:'arrows'},body);
  // Many requests without a message (polls, notifies) in view: short ticks on the device lane
  // instead of lines across every lane between it and the server.
  let nf=0;arrows.forEach(a=>{if(!a.type&&a.out==='ok'&&a.ep!=='push'&&arrowShown(a)&&visible(a.s,a.r>=0?a.r:a.a))nf++;});const dense=nf>150;
  arrows.forEach((a,i)=>{if(!arrowShown(a))return;const end=a.r>=0?a.r:a.a;if(!visible(a.s,end))return;
    if(dense&&!a.type&&a.out==='ok'&&a.ep!=='push'){const yd0=yMid(a.dev),dn=yd0<yMid(a.srv)?1:-1;el('line',{class:'arrow tick-'+a.ep,x1:X(a.s),x2:X(a.s),y1:yd0,y2:yd0+dn*8,stroke:COL[''],opacity:.5,'data-k':'arrow','data-i':i},gr);return;}
    const c=COL[a.ep==='push'?'push':a.type]||COL[''];const hk=a.ep==='push'?'push':(a.type||'none');const cl=hlCls(a.m);
    const yd=yMid(a.dev),ys=yMid(a.srv);
    const faint=!a.type&&a.out==='ok';const fa=faint?{opacity:.35,'stroke-width':.8}:{};
    if(a.ep==='push'){el('line',Object.assign({class:'arrow push'+cl,x1:X(a.s),y1:ys,x2:X(a.a),y2:yd,stroke:c,'marker-end':'url(#hpush)','data-k':'arrow','data-i':i},{opacity:.6}),gr);return;}
    const wide=a.r>=0&&X(a.r)-X(a.s)>3;
    el('line',Object.assign({class:'arrow req ep-'+a.ep+' out-'+a.out+cl,x1:X(a.s),y1:yd,x2:X(a.a),y2:ys,stroke:c,'data-k':'arrow','data-i':i},faint&&!wide?fa:Object.assign({'marker-end':'url(#h'+hk+')'},fa)),gr);
    if(a.r>=0&&(a.out==='error'||a.out==='late'||(a.out==='ok'&&wide)))el('line',{class:'arrow reply out-'+a.out+cl,x1:X(a.a),y1:ys,x2:X(a.r),y2:yd,stroke:a.out==='ok'?c:'#dc2626','data-k':'arrow','data-i':i},gr);
    if(a.out==='refused')el('text',{x:X(a.a)-4,y:ys+4,class:'mark',fill:'#dc2626','data-k':'arrow','data-i':i},gr,'×');
    if(a.out==='timed-out'){el('text',{x:X(a.a)-4,y:ys+4,class:'mark',fill:'#111','data-k':'arrow','data-i':i},gr,'×');if(a.r>=0)el('text',{x:X(a.r)-5,y:yd-4,class:'mark',fill:'#111'},gr,'t/o');}
    if(a.out==='late')el('text',{x:X(a.r)-5,y:yd-4,class:'mark',fill:'#dc2626','data-k':'arrow','data-i':i},gr,'late');
    if(a.out==='error')el('text',{x:X(a.a)+2,y:ys-3,class:'mark',fill:'#dc2626'},gr,'!');
    if(a.re)el('circle',{cx:X(a.s),cy:yd,r:3,fill:'#ea580c'},gr);});
  // resend → re-upload links
  const gk=el('g',{id:'links'},body);links.forEach((l,i)=>{const a=arrows[byArrow[l.from]],b=arrows[byArrow[l.to]];if(!a||!b||!arrowShown(a)||!arrowShown(b))return;
    if(!visible(Math.min(a.s,b.s),Math.max(a.s,b.s)))return;const x0=X(a.s),y0=yMid(a.dev),x1=X(b.s),y1=yMid(b.dev);const my=Math.min(y0,y1)-18;
    el('path',{class:'link',d:`M${x0},${y0} C${x0},${my} ${x1},${my} ${x1},${y1}`,'data-k':'link','data-i':i},gk);});
  // markers
  const gm=el('g',{id:'markers'},body);const stack={};markers.forEach((m,i)=>{if(Y[m.lane]===undefined||!visible(m.t,m.t))return;if(m.kind==='write'&&S.objects&&!S.objects.has(m.object))return;
    let x=Math.min(X(m.t),L+W-8);const key=m.kind+m.lane+':'+Math.round(x);const n=stack[key]||0;stack[key]=n+1;x-=n*(m.kind==='finding'?15:9);const y=yMid(m.lane);const g=el('g',{class:'marker '+m.kind+(S.flash===i?' flash':''),'data-k':'marker','data-i':i},gm);
    if(m.kind==='finding'){el('path',{d:`M${x},${y-9}L${x+7},${y}L${x},${y+9}L${x-7},${y}z`,fill:SEV[m.sev]||'#dc2626'},g);el('text',{x:x-2,y:y+4,fill:'#fff',class:'mark'},g,'!');}
    else el('path',{d:`M${x-4},${y-10}L${x+4},${y-10}L${x},${y-3}z`,fill:m.label==='delete'?COL.delete:COL.update},g);});
  drawAxis(svg,height);}
function drawAxis(svg,height){const g=el('g',{id:'axis'},svg);el('rect',{x:L,y:0,width:W,height:TOP,fill:'#fff'},g);el('line',{x1:L,x2:L+W,y1:TOP,y2:TOP,stroke:'#111'},g);
  const step=nice((S.v1-S.v0)/(W/120));let last=-1e9;
  const segs=[];if(S.compress){for(let i=0;i+1<T.length;i++){const lin=(U[i+1]-U[i])===(T[i+1]-T[i]);segs.push([T[i],T[i+1],lin]);}}else segs.push([ut(S.v0),ut(S.v1),true]);
  for(const[a,b,lin]of segs){const xa=X(a),xb=X(b);if(xb<L||xa>L+W)continue;
    if(!lin){el('path',{d:`M${xa},${TOP-6}l3,-5l3,10l3,-5`,stroke:'#6b7280',fill:'none'},g);if(xb-xa>40)el('text',{x:(xa+xb)/2,y:TOP-18,class:'gap','text-anchor':'middle'},g,'≈ '+fmtD(b-a));continue;}
    for(let t=Math.ceil(Math.max(a,ut(S.v0))/step)*step;t<=Math.min(b,ut(S.v1));t+=step){const x=X(t);if(x-last<70||x<L||x>L+W)continue;last=x;
      el('line',{x1:x,x2:x,y1:TOP-5,y2:TOP,stroke:'#111'},g);el('line',{x1:x,x2:x,y1:TOP,y2:height,stroke:'#f1f5f9'},g).setAttribute('stroke-dasharray','2 4');
      el('text',{x:x,y:TOP-9,class:'tick','text-anchor':'middle'},g,fmtT(t,step));}}
  el('text',{x:4,y:12,class:'tick'},g,'h:mm:ss');}
// ---- details ----
function mtext(i){const m=msgs[i];return `${m.type||'?'} ${m.id}${m.sender>=0?' from D'+(m.sender+1):''}${m.seq?' #'+m.seq:''}${m.object?' object '+m.object:''}`;}
function heldAt(mi,t){return spans.filter(s=>s.m===mi&&s.s<=t&&s.e>t).map(s=>laneName[s.lane]).join(', ')||'none';}
function details(k,i){if(k==='arrow'){const a=arrows[i];const dn=laneName[a.dev],sn=laneName[a.srv];
    if(a.ep==='push')return `push ${sn} → ${dn} at ${fmtT(a.a,1e6)}\n${a.detail}`;
    let s=`${a.ep} ${dn} → ${sn} (${a.type||'no message'})\noutcome: ${a.out}\nsent ${fmtT(a.s,1e6)}, reached ${sn} after ${fmtD(a.a-a.s)}`;
    if(a.r>=0)s+=`, answer back after ${fmtD(a.r-a.s)}`;s+=`\n${a.detail}${a.re?'\nre-upload (unicast to the requester)':''}`;
    if(a.m.length)s+='\nmessages:\n  '+a.m.slice(0,12).map(mtext).join('\n  ')+(a.m.length>12?`\n  … ${a.m.length-12} more`:'');return s;}
  if(k==='span'){const s=spans[i];return `share ${s.id} on ${laneName[s.lane]}\n${mtext(s.m)}\n${s.recv?'for '+s.recv+' only (re-upload)':'multicast'}\nheld ${fmtT(s.s,1e6)} → ${fmtT(s.e,1e6)} (${fmtD(s.e-s.s)}), ended: ${s.end}\n${D.sharing}, TTL ${fmtD(D.ttl)}\nservers holding it at its put: ${heldAt(s.m,s.s+1)}`;}
  if(k==='band'){const b=bands[i];return `${b.detail}\n${fmtT(b.s,1e6)} → ${fmtT(b.e,1e6)} (${fmtD(b.e-b.s)})`;}
  if(k==='marker'){const m=markers[i];return `${m.kind==='finding'?'['+m.sev+'] '+m.label:m.label} at ${fmtT(m.t,1e6)} on ${laneName[m.lane]}\n${m.text}`+(m.m.length?'\n'+m.m.map(mtext).join('\n'):'');}
  if(k==='link'){const l=links[i];return `resend request → re-upload\n${l.detail}`;}
  if(k==='agg'){const a=aggs[i];return `${a.n} ${a.what} on ${laneName[a.lane]} not drawn one by one\n${fmtT(a.s,1e6)} → ${fmtT(a.e,1e6)}`;}
  if(k==='lane')return `lane ${laneName[i]}`;return '';}
function idsOf(k,i){if(k==='arrow')return arrows[i].m;if(k==='span')return[spans[i].m];if(k==='marker')return markers[i].m;return[];}
// ---- interaction ----
const tip=document.getElementById('tip');const chart=document.getElementById('chart');
function hit(e){const t=e.target.closest&&e.target.closest('[data-k]');return t?[t.getAttribute('data-k'),+t.getAttribute('data-i')]:null;}
chart.addEventListener('mousemove',e=>{if(drag){const dx=e.clientX-drag.x;const du=dx/W*(S.v1-S.v0);S.v0=drag.v0-du;S.v1=drag.v1-du;draw();return;}
  const h=hit(e);if(!h||h[0]==='lane'){tip.style.display='none';return;}tip.textContent=details(h[0],h[1]);tip.style.display='block';
  tip.style.left=Math.min(e.clientX+14,innerWidth-530)+'px';tip.style.top=(e.clientY+14)+'px';});
chart.addEventListener('mouseleave',()=>tip.style.display='none');
let drag=null,moved=false;chart.addEventListener('mousedown',e=>{drag={x:e.clientX,v0:S.v0,v1:S.v1};moved=false;});
addEventListener('mouseup',e=>{if(drag&&Math.abs(e.clientX-drag.x)>3)moved=true;drag=null;});
chart.addEventListener('click',e=>{if(moved)return;const h=hit(e);if(!h||h[0]==='lane'){S.hl=new Set();S.flash=-1;document.getElementById('details').textContent='Hover over or click an item.';draw();return;}
  document.getElementById('details').textContent=details(h[0],h[1]);S.hl=new Set(idsOf(h[0],h[1]));draw();});
chart.addEventListener('wheel',e=>{e.preventDefault();const r=chart.getBoundingClientRect();const f=Math.pow(1.2,e.deltaY/100);
  const u=S.v0+(e.clientX-r.left-L)/W*(S.v1-S.v0);zoomTo(u-(u-S.v0)*f,u+(S.v1-u)*f);},{passive:false});
function zoomTo(a,b){if(b-a<1e3){const c=(a+b)/2;a=c-500;b=c+500;}S.v0=a;S.v1=b;draw();}
function fit(){S.v0=tu(D.from);S.v1=tu(D.to);if(S.v1<=S.v0)S.v1=S.v0+1e9;}
function jump(i){const m=markers[i];let a=m.t,b=m.t;const ids=new Set(m.m);
  arrows.forEach(x=>{if(x.m.some(j=>ids.has(j))){a=Math.min(a,x.s);b=Math.max(b,x.r>=0?x.r:x.a);}});spans.forEach(s=>{if(ids.has(s.m)){a=Math.min(a,s.s);}});
  const ua=tu(a),ub=tu(b),pad=Math.max((ub-ua)*0.05,1e6);S.hl=ids;S.flash=i;document.getElementById('details').textContent=details('marker',i);zoomTo(ua-pad,ub+pad);}
// ---- toolbar, findings, header ----
function button(p,label,f,title){const b=document.createElement('button');b.textContent=label;if(title)b.title=title;b.onclick=f;p.appendChild(b);return b;}
function check(p,label,on,f){const l=document.createElement('label');const c=document.createElement('input');c.type='checkbox';c.checked=on;c.onchange=()=>f(c.checked);l.appendChild(c);l.append(' '+label);p.appendChild(l);return c;}
function setup(){const tb=document.getElementById('toolbar');
  button(tb,'Fit window',()=>{fit();draw();},'the window this page was made for');button(tb,'−',()=>{const c=(S.v0+S.v1)/2,h=(S.v1-S.v0);zoomTo(c-h,c+h);},'zoom out');
  button(tb,'+',()=>{const c=(S.v0+S.v1)/2,h=(S.v1-S.v0)/4;zoomTo(c-h,c+h);},'zoom in (or the mouse wheel; drag to pan)');
  button(tb,'◀',()=>{const d=(S.v1-S.v0)/3;zoomTo(S.v0-d,S.v1-d);});button(tb,'▶',()=>{const d=(S.v1-S.v0)/3;zoomTo(S.v0+d,S.v1+d);});
  check(tb,'compress idle time',false,v=>{const a=ut(S.v0),b=ut(S.v1);S.compress=v;buildMap();S.v0=tu(a);S.v1=tu(b);draw();});
  const ty=document.createElement('details');ty.innerHTML='<summary>message types</summary>';const tyd=document.createElement('div');ty.appendChild(tyd);tb.appendChild(ty);
  ['update','delete','confirm','resend','mixed',''].forEach(t=>check(tyd,t||'no message',true,v=>{v?S.types.add(t):S.types.delete(t);draw();}));
  const ep=document.createElement('details');ep.innerHTML='<summary>requests</summary>';const epd=document.createElement('div');ep.appendChild(epd);tb.appendChild(ep);
  ['put','list','get','confirm','notify','push','other'].forEach(t=>check(epd,t,true,v=>{v?S.eps.add(t):S.eps.delete(t);draw();}));
  const ln=document.createElement('details');ln.innerHTML='<summary>lanes</summary>';const lnd=document.createElement('div');ln.appendChild(lnd);tb.appendChild(ln);
  lanes.forEach(l=>check(lnd,l.name,true,v=>{v?S.hidden.delete(l.i):S.hidden.add(l.i);draw();}));
  const ol=document.createElement('label');ol.textContent='objects ';const oi=document.createElement('input');oi.type='text';oi.placeholder='obj-1, obj-2';
  oi.onchange=()=>{const v=oi.value.split(',').map(x=>x.trim()).filter(x=>x);S.objects=v.length?new Set(v):null;draw();};ol.appendChild(oi);tb.appendChild(ol);
  const info=document.getElementById('info');info.textContent=`seed ${D.seed} · ${D.sharing} · TTL ${fmtD(D.ttl)} · run ${fmtD(D.end)} · window ${fmtT(D.from,1e9)} → ${fmtT(D.to,1e9)}: ${D.window}`+(D.command?` · ${D.command}`:'');
  const notes=document.getElementById('notes');D.notes.forEach(n=>{const d=document.createElement('div');d.className='note';d.textContent=n;notes.appendChild(d);});
  const fl=document.getElementById('findings');let nf=0;markers.forEach((m,i)=>{if(m.kind!=='finding')return;nf++;const li=document.createElement('li');li.className=m.sev;li.textContent=`${m.label} (${m.sev}) on ${laneName[m.lane]}: ${m.text}`;li.onclick=()=>jump(i);fl.appendChild(li);});
  if(!nf)fl.outerHTML='<p id="findings">No checker finding in this window.</p>';
  const lg=document.getElementById('legend');const sw=(c,t)=>{const s=document.createElement('span');s.innerHTML=`<i style="background:${c}"></i>`;s.append(t);lg.appendChild(s);};
  ['update','delete','confirm','resend','mixed'].forEach(t=>sw(COL[t],t));sw(COL[''],'list/get/notify without message');sw(COL.push,'push');
  for(const k in BAND)sw(BAND[k],k==='blackholed'?'blackholed (requests time out)':k==='refusing'?'down, refusing':k);
  const p=document.createElement('p');p.textContent='Lines device→server: requests; dashed back: answers. × refused or timed out (t/o where the device gave up), "late": served but answered after the timeout, ! error. Thick bars on server lanes: shares, from put to deletion (| TTL or replaced, × lost in a restart, faint: re-uploaded for one device). Orange dashed curves: a resend request and the re-upload answering it; orange dot: a re-upload. Diamonds: checker findings (red safety, amber liveness, purple server); triangles: writes. Grey bars: items counted, not drawn.';lg.appendChild(p);}
buildMap();fit();setup();draw();addEventListener('resize',draw);
"""#
}
