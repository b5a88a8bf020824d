"""Loads one of kgen's HTML pages (report.html, a `kgen compare --html` page) in headless Chromium and checks it as a
reader would see it: no script error and no console error, the charts rendered with a size (and their legends), the
filters hiding rows when used, and a screenshot of the page that is not blank.

  browser_check.py PAGE.html [--svg-title TEXT]... [--min-charts N] [--filter TABLE KEY VALUE ROWS]...
                   [--text TEXT]... [--screenshot OUT.png]

--svg-title: an <svg> whose <title> contains TEXT must be drawn with a non-zero size.
--filter: setting the filter of table TABLE with data-key KEY to VALUE must leave ROWS rows shown (and say so).
--text: TEXT must be in the rendered page's text.
Exit 0 when every check passes, 1 with one line per failure, 2 when Chromium cannot run.
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Headless, no network: without the background-networking flags Chromium tries to reach Google's hosts at start.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--hide-scrollbars", "--mute-audio"]

# Runs first: records uncaught errors and console.error / console.warn calls of the page's own script.
EARLY = """<script>window.__kgenErrors=[];window.addEventListener('error',function(e){
window.__kgenErrors.push('error: '+e.message+' at '+e.lineno+':'+e.colno);});
['error','warn'].forEach(function(k){var f=console[k];console[k]=function(){
window.__kgenErrors.push(k+': '+Array.from(arguments).join(' '));f.apply(console,arguments);};});</script>"""

# Runs last: measures the charts, exercises the filters, writes what it saw into <pre id="kgen-harness">.
LATE = """<script>(function(){var out={errors:window.__kgenErrors,charts:[],filters:[]};
document.querySelectorAll('svg').forEach(function(s){var r=s.getBoundingClientRect(),t=s.querySelector('title');
out.charts.push({title:t?t.textContent:'',w:r.width,h:r.height,shapes:s.querySelectorAll('rect,circle,polyline,line').length,
texts:s.querySelectorAll('text').length});});
var tests=%s;tests.forEach(function(t){var e=document.querySelector('.filter[data-table="'+t[0]+'"][data-key="'+t[1]+'"]');
if(!e){out.filters.push({test:t,error:'no such filter'});return;}
e.value=t[2];e.dispatchEvent(new Event('change'));var tb=document.getElementById(t[0]);
var shown=Array.from(tb.tBodies[0].rows).filter(function(r){return r.style.display!=='none';}).length;
var c=document.getElementById(t[0]+'-count');out.filters.push({test:t,shown:shown,count:c?c.textContent:''});
e.value='';e.dispatchEvent(new Event('change'));});
out.text=document.body.innerText.length;var p=document.createElement('pre');p.id='kgen-harness';
p.textContent=JSON.stringify(out);document.body.appendChild(p);})();</script>"""


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--svg-title", action="append", default=[])
    ap.add_argument("--min-charts", type=int, default=1)
    ap.add_argument("--filter", nargs=4, action="append", default=[], metavar=("TABLE", "KEY", "VALUE", "ROWS"))
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--screenshot")
    a = ap.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        print(f"browser_check: no Chromium at {CHROMIUM} (Debian package chromium; scripts/setup.sh installs it)")
        return 2
    html = open(a.page, encoding="utf-8").read()
    tests = [[t, k, v, int(n)] for t, k, v, n in a.filter]
    if "<head>" not in html or "</body>" not in html:
        print(f"FAIL {a.page}: not a whole HTML page (no <head> or </body>)")
        return 1
    page = html.replace("<head>", "<head>" + EARLY, 1)
    i = page.rfind("</body>")
    page = page[:i] + LATE % json.dumps([[t, k, v] for t, k, v, _ in tests]) + page[i:]
    bad = []
    with tempfile.TemporaryDirectory(prefix="kgen-browser-") as tmp:
        path = os.path.join(tmp, "page.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        url = "file://" + path
        run = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp}/profile", "--virtual-time-budget=5000",
                              "--dump-dom", url], capture_output=True, text=True, timeout=120)
        m = re.search(r'<pre id="kgen-harness">(.*?)</pre>', run.stdout, re.S)
        if not m:
            print(f"FAIL {a.page}: Chromium did not render the page (exit {run.returncode}): {run.stderr[-600:]}")
            return 1
        got = json.loads(m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
                         .replace("&#39;", "'").replace("&amp;", "&"))
        dom_text = re.sub(r"<[^>]+>", " ", run.stdout)
        for e in got["errors"]:
            bad.append(f"console/script {e}")
        charts = got["charts"]
        drawn = [c for c in charts if c["w"] > 0 and c["h"] > 0 and c["shapes"] > 0]
        if len(drawn) < a.min_charts:
            bad.append(f"{len(drawn)} chart(s) drawn with a size, want at least {a.min_charts}: {charts[:5]}")
        for t in a.svg_title:
            hit = [c for c in charts if t in c["title"]]
            if not hit:
                bad.append(f"no chart titled '{t}' (titles: {sorted({c['title'] for c in charts})[:12]})")
            elif not any(c["w"] > 50 and c["h"] > 20 and c["shapes"] > 1 and c["texts"] > 0 for c in hit):
                bad.append(f"chart '{t}' is not drawn (size, shapes, legend/axis text): {hit[0]}")
        for want, f in zip(tests, got["filters"]):
            if "error" in f:
                bad.append(f"filter {want[:3]}: {f['error']}")
            elif f["shown"] != want[3] or not f["count"].startswith(f"{want[3]} of "):
                bad.append(f"filter {want[:3]}: {f['shown']} rows shown ('{f['count']}'), want {want[3]}")
        for t in a.text:
            if t not in dom_text:
                bad.append(f"text '{t}' not on the rendered page")
        if a.screenshot:
            shot = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp}/profile2", "--window-size=1280,1600",
                                   f"--screenshot={os.path.abspath(a.screenshot)}", "file://" + os.path.abspath(a.page)],
                                  capture_output=True, text=True, timeout=120)
            size = png_size(a.screenshot) if os.path.exists(a.screenshot) else None
            if size is None:
                bad.append(f"no screenshot (exit {shot.returncode}): {shot.stderr[-300:]}")
            elif size != (1280, 1600) or os.path.getsize(a.screenshot) < 20000:
                bad.append(f"screenshot {size}, {os.path.getsize(a.screenshot)} bytes: blank or cut")
    for b in bad:
        print(f"FAIL {a.page}: {b}")
    if not bad:
        print(f"ok   {os.path.basename(a.page)} in Chromium: no console error, {len(drawn)} chart(s) drawn, "
              f"{len(tests)} filter(s) work" + (f", screenshot {a.screenshot}" if a.screenshot else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
