// What the benchmark's HTML pages share (report.html, compare.html): escaping, number formats, verdict badges, the
// stylesheet, and the one inline script (table sorting and row filters). No network, no external files.
#pragma once
#include <set>
#include <string>

namespace kgen::eval::html {
std::string esc(const std::string& s);                  // &, <, >, ", ' escaped: safe in text and attributes
std::string pct(double fraction);                       // "12.5%", "-" when not finite
std::string times(double v);                            // "1.23x", "-" unless finite and positive
std::string gnum(double v);                             // 4 significant digits
std::string svgn(double v);                             // an SVG coordinate, one decimal
const char* verdict_colour(const std::string& verdict);
std::string badge(const std::string& verdict);          // a coloured verdict label
const char* style();                                    // the pages' CSS
// Sorts every table.sortable on a header click (numbers by a cell's data-v, else text), and filters rows: a
// <select>/<input> with class "filter", data-table=ID and data-key=K keeps the rows of table ID whose data-K equals
// its value (data-key="text": whose first cell contains it); an element #ID-count says "N of M rows".
const char* script();
// <label>LABEL <select class="filter" ...> with "all" and each value, for table `table`'s rows' data-`key`.
std::string filter_select(const std::string& table, const std::string& key, const std::string& label,
                          const std::set<std::string>& values);
// A text filter on the first cell and the row count, for table `table`.
std::string filter_text(const std::string& table, size_t rows);
}  // namespace kgen::eval::html
