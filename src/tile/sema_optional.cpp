// check (optional inputs): `bias: T[n] = None` declares an input the caller may leave out (nn.Linear(bias=False)).
// The harness passes inputs by position, so optional ones come last; they bind no dim and feed only cube epilogues.
#include "tile/cube.h"

namespace kgen::tile {

void check_optional_inputs(const Kernel& k, bool cube, Diags& d) {
  const TensorArg* first_optional = nullptr;
  for (size_t i = 0; i < k.tensors.size(); ++i) {
    const TensorArg& t = k.tensors[i];
    if (t.output) continue;
    if (!t.optional) {
      if (first_optional)   // positional inputs: a missing optional one would shift this one into its place
        d.error(t.range, "required input '" + t.name + "' after the optional input '" + first_optional->name + "'",
                "inputs are passed in order; put the optional (= None) inputs last");
      continue;
    }
    if (!first_optional) first_optional = &t;
    if (!cube) {
      d.error(t.range, "an optional input (= None) is read only by a cube program's epilogue",
              "a vector program needs every input: drop '= None'");
      continue;
    }
    for (const Sym& s : k.syms)
      if (s.tensor == static_cast<int>(i))   // the host reads the dim from this input's shape, which may be absent
        d.error(t.range, "dim '" + s.name + "' is first named by the optional input '" + t.name + "'",
                "name it in a required input first (the host reads dims from inputs that are always given)");
  }
}
}  // namespace kgen::tile
