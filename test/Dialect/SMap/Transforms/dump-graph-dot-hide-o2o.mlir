// hide-o2o-data=true leaves out the tensors produced and read one-to-one
// only, connecting their producer to their readers (the edge keeps the
// tensor's name). LayerNorm keeps its row statistics (reduced, or broadcast
// to their readers) and its output; every elementwise step in between is
// left out. With Update-then-Aggregate disabled, 'n' is not sliceable: it
// is drawn in vermillion.

// RUN: spacefusion-opt %examples/layernorm.mlir --smap-form-graphs '--smap-analyze=allow-uta=false' \
// RUN:   --smap-dump-graph="format=dot hide-o2o-data=true" -o /dev/null | FileCheck %s
// RUN: spacefusion-opt %examples/layernorm.mlir --smap-form-graphs '--smap-analyze=allow-uta=false' \
// RUN:   --smap-dump-graph="format=dot hide-o2o-data=true" -o /dev/null | FileCheck %s --check-prefix=HIDDEN
// RUN: spacefusion-opt %examples/layernorm.mlir --smap-form-graphs '--smap-analyze=allow-uta=false' \
// RUN:   --smap-dump-graph="format=dot" -o /dev/null | FileCheck %s --check-prefix=ALL

// CHECK:      <tr><td>[[M:<font color="#009E73">m</font>]]</td><td align="right">4096</td>
// CHECK:      <tr><td>[[N:<font color="#D55E00">n</font>]]</td><td align="right">1024</td>
// CHECK-SAME:   <td><font color="#D55E00">not_sliceable</font></td>
// CHECK-SAME:   the chain needs Update-then-Aggregate, which is disabled (allow-uta=false)</td></tr>

// Reduced: kept.
// CHECK:      "g0.reduce_add0.out" [shape=ellipse
// CHECK-NEXT: "g0.reduce_add0" -> "g0.reduce_add0.out" [label=<a2o([[N]], add)>, color="#D55E00"];
// Broadcast to its reader: kept.
// CHECK:      "g0.divf1.out" [shape=ellipse
// CHECK:      "g0.divf1.out" -> "g0.subf2" [label=<o2a([[N]])>, color="#D55E00"];
// subf2.out, read one-to-one by mulf3 and mulf8: left out.
// CHECK:      "g0.subf2" -> "g0.mulf3" [label="subf2.out", color="gray40", fontcolor="gray40", tooltip="subf2.out [m, n]: o2o"];
// CHECK-NEXT: "g0.reduce_add4" [shape=box
// CHECK-NEXT: "g0.mulf3" -> "g0.reduce_add4" [label="mulf3.out", color="gray40", fontcolor="gray40", tooltip="mulf3.out [m, n]: o2o"];
// CHECK:      "g0.divf5" -> "g0.addf6" [label="divf5.out"
// CHECK:      "g0.addf6" -> "g0.rsqrt7" [label="addf6.out"
// CHECK:      "g0.rsqrt7.out" [shape=ellipse
// CHECK:      "g0.subf2" -> "g0.mulf8" [label="subf2.out"
// CHECK-NEXT: "g0.rsqrt7.out" -> "g0.mulf8" [label=<o2a([[N]])>, color="#D55E00"];
// CHECK:      "g0.mulf8" -> "g0.mulf9" [label="mulf8.out"
// CHECK:      "g0.mulf9" -> "g0.addf10" [label="mulf9.out"
// An output is never left out.
// CHECK:      "g0.addf10.out" [shape=ellipse, label=<addf10.out<br/>[[[M]], [[N]]&#93;>, peripheries=2, tooltip="graph output #0"];
// CHECK-NEXT: "g0.addf10" -> "g0.addf10.out" [label="o2o", color="gray40", fontcolor="gray40"];
// CHECK-NOT:  .out"

// No node and no edge of the tensors left out.
// HIDDEN-NOT: "g0.{{subf2|mulf3|divf5|addf6|mulf8|mulf9}}.out"

// Without the option every tensor is drawn.
// ALL: "g0.subf2.out" [shape=ellipse
// ALL: "g0.subf2.out" -> "g0.mulf3" [label="o2o"
// ALL: "g0.mulf9.out" [shape=ellipse
