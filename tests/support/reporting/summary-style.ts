/**
 * The summary page's inline stylesheet and script (the page loads nothing from anywhere).
 * Colours: green passed or met, red failed, amber flagged, blue dashed inconclusive, violet dashed
 * blocked, grey dashed not run.
 */
export const summaryStyle = `
:root{--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--skip:#59636e;--skip-bg:#eef1f4;--flag:#9a6700;--flag-bg:#fff8c5;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--paper:#fff;--page:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1200px;margin:0 auto;padding:0 24px 48px}
h2{font-size:20px;margin:36px 0 12px}
.count{font-size:14px;font-weight:500;color:var(--muted);margin-left:6px}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
a{color:inherit}
.muted,.hint{color:var(--muted);font-size:13px}
.banner{padding:28px 24px 20px;color:#fff}
.banner>*{max-width:1152px;margin-left:auto;margin-right:auto}
.banner.conformant{background:linear-gradient(135deg,#1a7f37,#116329)}
.banner.not-conformant{background:linear-gradient(135deg,#cf222e,#a40e26)}
.banner.incomplete{background:linear-gradient(135deg,#6e7781,#424a53)}
.kicker{margin:0 auto;opacity:.85;font-size:14px;letter-spacing:.02em}
h1{margin:4px auto 16px;font-size:30px;line-height:1.2}
.bar{display:flex;height:26px;border-radius:6px;overflow:hidden;background:#fff3;font-size:12px;font-weight:600}
.bar span{display:flex;align-items:center;justify-content:center;min-width:max-content;padding:0 8px;white-space:nowrap}
.bar .passed{background:#dafbe1;color:#116329}.bar .failed{background:#ffebe9;color:#a40e26}.bar .not-run{background:#eef1f4;color:#424a53}.bar .inconclusive{background:#ddf4ff;color:#0550ae}.bar .blocked{background:#fbefff;color:#8250df}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:10px 24px;margin-top:18px;margin-bottom:0}
.facts div{min-width:0}.facts div:first-child{grid-column:span 2}.facts dt{font-size:12px;opacity:.8;text-transform:uppercase;letter-spacing:.04em}.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.legend{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;white-space:nowrap;border:1px solid currentColor}
.badge.passed,.badge.met{color:var(--pass);background:var(--pass-bg)}
.badge.failed{color:var(--fail);background:var(--fail-bg)}
.badge.not-run{color:var(--skip);background:var(--skip-bg)}
.badge.flagged{color:var(--flag);background:var(--flag-bg)}
.badge.inconclusive{color:#0550ae;background:#ddf4ff}
.badge.blocked{color:#8250df;background:#fbefff}
.matrix{background:var(--paper);border:1px solid var(--line);border-radius:10px;overflow:hidden}
.row{display:grid;grid-template-columns:260px 1fr;border-top:1px solid var(--line)}
.row:first-child{border-top:0}
.section{padding:12px 16px;background:#fbfcfd;border-right:1px solid var(--line);font-size:14px}
.tiles{display:flex;flex-wrap:wrap;gap:8px;padding:10px 12px}
.tile{display:inline-flex;align-items:center;gap:6px;padding:6px 10px;border-radius:6px;font:600 12.5px/1.2 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;text-decoration:none;border:1px solid transparent}
.tile .icon{font-family:system-ui,sans-serif;font-size:13px}
.tile.passed,.tile.met{background:var(--pass-bg);color:var(--pass);border-color:#aceebb}
.tile.failed{background:var(--fail);color:#fff;box-shadow:0 0 0 2px var(--fail-bg)}
.tile.not-run{background:var(--skip-bg);color:var(--skip);border-color:var(--line);border-style:dashed}
.tile.flagged{background:var(--flag-bg);color:var(--flag);border-color:#f2cc60}
.tile.inconclusive{background:#ddf4ff;color:#0550ae;border-color:#80ccff;border-style:dashed}
.tile.blocked{background:#fbefff;color:#8250df;border-color:#d8b9ff;border-style:dashed}
.tile:hover,.tile:focus{outline:2px solid var(--ink);outline-offset:1px}
.failure{background:var(--paper);border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:8px;padding:14px 18px;margin:14px 0}
.failure:target{box-shadow:0 0 0 3px #ff818266}
.failure h3{margin:0;font-size:16px;display:flex;gap:10px;align-items:baseline}
.where{margin:2px 0 8px;color:var(--muted);font-size:13px}
.ids{margin:0 0 10px;padding-left:18px;font-size:14px}.ids a{font-weight:600}
.words{color:var(--muted)}
.error{display:grid;gap:8px;margin:10px 0}
.part{border-radius:6px;overflow:hidden;border:1px solid var(--line)}
.part .label{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.06em;padding:4px 10px;background:#eef1f4;color:var(--muted)}
.part pre{padding:8px 10px}
.part.request pre{font-weight:600}
.part.expected .label{background:var(--pass-bg);color:var(--pass)}
.part.received .label,.part.other .label{background:var(--fail-bg);color:var(--fail)}
details{margin-top:8px}summary{cursor:pointer;color:var(--muted);font-size:13px}
details pre{margin-top:6px;padding:10px;background:#f6f8fa;border-radius:6px;max-height:420px;overflow:auto}
table{width:100%;border-collapse:collapse;background:var(--paper);border:1px solid var(--line);border-radius:10px;overflow:hidden}
th{text-align:left;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fbfcfd;padding:8px 12px;border-bottom:1px solid var(--line)}
td{vertical-align:top;padding:10px 12px;border-top:1px solid var(--line);font-size:14px}
tr.failed td:first-child{box-shadow:inset 4px 0 var(--fail)}
tr.flagged td:first-child{box-shadow:inset 4px 0 #d4a72c}
tr.not-run td:first-child{box-shadow:inset 4px 0 #afb8c1}
tr.inconclusive td:first-child{box-shadow:inset 4px 0 #54aeff}
tr.blocked td:first-child{box-shadow:inset 4px 0 #c297ff}
tr.passed td:first-child,tr.met td:first-child{box-shadow:inset 4px 0 #4ac26b}
td.id{width:230px}td.verdict{width:110px}td.verdict a{text-decoration:none}
q{quotes:"“" "”"}
.tests{list-style:none;margin:0;padding:0}.tests li{margin:2px 0}
.tests .passed .icon{color:var(--pass)}.tests .failed .icon{color:var(--fail)}.tests .not-run{color:var(--muted)}
.reason{font-size:12px;color:var(--muted);font-style:italic}
.findings{margin:6px 0 0;padding-left:18px;color:var(--flag);font-size:13px}
.reasons{margin:6px 0 0;padding-left:18px;color:var(--muted);font-size:13px}
.charge{border-top:1px dashed var(--line);padding-top:8px;margin-top:8px}.charge:first-of-type{border-top:0}
.scroll{overflow-x:auto;background:var(--paper);border:1px solid var(--line);border-radius:10px}
table.overview{border:0;border-radius:0}table.overview td.cell{padding:4px;text-align:center;border-left:1px solid var(--line)}
table.overview th.target{min-width:220px;font-size:14px;text-transform:none;letter-spacing:0;color:var(--ink);background:var(--paper)}
th.rot{height:170px;vertical-align:bottom;padding:4px}th.rot span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font:600 11.5px ui-monospace,monospace;color:var(--ink);text-transform:none}
table.overview .tile{justify-content:center;min-width:26px;padding:4px}
.filters{display:flex;gap:6px;flex-wrap:wrap}
.filters button{font:inherit;font-size:13px;padding:3px 12px;border-radius:999px;border:1px solid var(--line);background:var(--paper);cursor:pointer}
.filters button[aria-pressed=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
footer{max-width:1200px;margin:0 auto;padding:0 24px 32px;color:var(--muted);font-size:13px}
@media (max-width:720px){.row{grid-template-columns:1fr}.section{border-right:0;border-bottom:1px solid var(--line)}td.id{width:auto}}
`;

// Filters the requirement table by verdict; without script every row simply stays visible.
export const summaryScript = `
document.querySelectorAll('.filters').forEach(function (bar) {
  bar.hidden = false;
  var rows = bar.parentElement.querySelectorAll('tbody tr');
  bar.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    bar.querySelectorAll('button').forEach(function (b) { b.setAttribute('aria-pressed', String(b === button)); });
    rows.forEach(function (row) { row.hidden = !!button.dataset.filter && row.dataset.verdict !== button.dataset.filter; });
  });
});
`;
