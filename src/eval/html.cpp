// The HTML pages' shared pieces (html.h).
#include "eval/html.h"

#include <cmath>

#include <fmt/format.h>

namespace kgen::eval::html {
std::string esc(const std::string& s) {
  std::string o;
  o.reserve(s.size() + s.size() / 8);
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += ch;
    }
  }
  return o;
}

std::string pct(double v) { return std::isfinite(v) ? fmt::format("{:.1f}%", 100 * v) : "-"; }
std::string times(double v) { return std::isfinite(v) && v > 0 ? fmt::format("{:.2f}x", v) : "-"; }
std::string gnum(double v) { return std::isfinite(v) ? fmt::format("{:.4g}", v) : fmt::format("{}", v); }
std::string svgn(double v) { return fmt::format("{:.1f}", v); }

const char* verdict_colour(const std::string& v) {
  if (v == "correct") return "#2e7d32";
  if (v == "wrong-answer") return "#c62828";
  if (v == "compile-error") return "#6a1b9a";
  if (v == "runtime-error") return "#ef6c00";
  if (v == "timeout") return "#795548";
  if (v == "cheating") return "#ad1457";
  if (v == "no-code") return "#37474f";
  return "#757575";   // missing, unknown
}

std::string badge(const std::string& v) {
  return fmt::format("<span class=\"badge\" style=\"background:{}\">{}</span>", verdict_colour(v), esc(v));
}

const char* style() {
  return R"CSS(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1200px;
padding:0 20px 40px;color:#212121;background:#fafafa;font-size:14px;line-height:1.4}
h1{font-size:24px;margin:20px 0 4px}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:16px;margin:6px 0}.meta{color:#555}.note{color:#555;font-size:13px}
table{border-collapse:collapse;margin:6px 0 12px;background:#fff}th,td{border:1px solid #ddd;padding:3px 7px;
text-align:right}th{background:#eceff1;font-weight:600}td:first-child,th:first-child{text-align:left}
table.sortable th{cursor:pointer}table.sortable th:hover{background:#cfd8dc}td.l{text-align:left}
.badge{color:#fff;border-radius:3px;padding:1px 6px;font-size:12px;white-space:nowrap}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{background:#fff;border:1px solid #ddd;border-radius:4px;
padding:8px 14px;min-width:110px}.card .v{font-size:22px;font-weight:600}.card .k{color:#555;font-size:12px}
pre{background:#f5f5f5;border:1px solid #e0e0e0;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap;
word-break:break-all}section.task{background:#fff;border:1px solid #ddd;border-radius:4px;padding:8px 14px;
margin:12px 0}section.task:target{border:2px solid #1565c0}summary{cursor:pointer;color:#1565c0}
.chart{display:block;margin:6px 0}.chart text{font-family:inherit}.small{font-size:11px;fill:#424242}
.lbl{font-size:12px;fill:#212121}.grid{stroke:#e0e0e0;stroke-width:1}.axis{stroke:#616161}
.ref{stroke:#424242;stroke-dasharray:4 3}.ceil{fill:none;stroke:#c62828;stroke-width:1.5}.frame{fill:#fff;stroke:#bdbdbd}a{color:#1565c0}
.filters label{margin-right:12px}.filters select,.filters input{font:inherit}
)CSS";
}

const char* script() {
  return R"JS(
document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){
var i=th.cellIndex,b=th.closest('table').tBodies[0],rows=Array.from(b.rows),d=th.dataset.dir==='a'?-1:1;
th.dataset.dir=d>0?'a':'d';rows.sort(function(x,y){var a=x.cells[i].dataset.v,c=y.cells[i].dataset.v;
if(a!==undefined&&c!==undefined)return d*(parseFloat(a)-parseFloat(c));
return d*x.cells[i].textContent.localeCompare(y.cells[i].textContent);});
rows.forEach(function(r){b.appendChild(r);});});});
(function(){var fs=Array.from(document.querySelectorAll('.filter')),ts={};
fs.forEach(function(f){ts[f.dataset.table]=1;});
function apply(id){var t=document.getElementById(id);if(!t)return;var mine=fs.filter(function(f){return f.dataset.table===id;}),n=0,all=0;
Array.from(t.tBodies[0].rows).forEach(function(r){all++;var ok=mine.every(function(f){if(!f.value)return true;
return f.dataset.key==='text'?r.cells[0].textContent.indexOf(f.value)>=0:r.dataset[f.dataset.key]===f.value;});
r.style.display=ok?'':'none';if(ok)n++;});var c=document.getElementById(id+'-count');if(c)c.textContent=n+' of '+all+' rows';}
fs.forEach(function(f){['input','change'].forEach(function(e){f.addEventListener(e,function(){apply(f.dataset.table);});});});})();
)JS";
}

std::string filter_select(const std::string& table, const std::string& key, const std::string& label,
                          const std::set<std::string>& values) {
  std::string s = fmt::format("<label>{} <select class=\"filter\" data-table=\"{}\" data-key=\"{}\"><option value=\"\">all"
                              "</option>", esc(label), esc(table), esc(key));
  for (const auto& v : values) s += "<option value=\"" + esc(v) + "\">" + esc(v) + "</option>";
  return s + "</select></label>";
}

std::string filter_text(const std::string& table, size_t rows) {
  return fmt::format("<label>task <input class=\"filter\" data-table=\"{0}\" data-key=\"text\" type=\"search\" "
                     "placeholder=\"id contains\"></label> <span id=\"{0}-count\">{1} of {1} rows</span>",
                     esc(table), rows);
}
}  // namespace kgen::eval::html
