// The DOT dump shows what was decided: every dim has a color for its class
// (parallel green, parallel_recompute orange, temporal blue), in the legend,
// in every space's and tensor's dim list, and on every edge mapping along
// it; the legend gives each dim's extent, class and reason (with the
// temporal update functions), the schedule and the mapping totals; spaces
// carry their op's source location; the graph output has a double border.

// RUN: spacefusion-opt %examples/attention_paper.mlir --smap-form-graphs --smap-set-target=target=cpu \
// RUN:   --smap-analyze '--smap-schedule=spatial=m:64 temporal=l:64' --smap-dump-graph=format=dot -o /dev/null \
// RUN:   | FileCheck %s
// Before smap-schedule, the legend has no schedule row.
// RUN: spacefusion-opt %examples/attention_paper.mlir --smap-form-graphs --smap-dump-graph=format=dot -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=UNSCHEDULED

// CHECK:      digraph smg {
// CHECK:      subgraph "cluster_g0" {
// CHECK-NEXT: label="graph 0 in @attention_paper";
// CHECK-NEXT: "g0.legend" [shape=plain, label=<<table border="0" cellborder="1" cellspacing="0" cellpadding="3">
// CHECK-NEXT: <tr><td><b>dim</b></td><td><b>extent</b></td><td><b>class</b></td><td><b>reason</b></td></tr>
// CHECK-NEXT: <tr><td>[[M:<font color="#009E73">m</font>]]</td><td align="right">512</td>
// CHECK-SAME:   <td><font color="#009E73">parallel</font></td>
// CHECK-SAME:   <td align="left">no member reduces along it and no intermediate is broadcast along it</td></tr>
// CHECK-NEXT: <tr><td>[[N:<font color="#E69F00">n</font>]]</td><td align="right">64</td>
// CHECK-SAME:   <td><font color="#E69F00">parallel_recompute</font></td>
// CHECK-SAME:   <td align="left">divf4 is broadcast into matmul5 along it; every block recomputes matmul0, reduce_max1, exp2, reduce_add3, divf4</td></tr>
// The reason's "->" is escaped; each line of the cell is left-aligned.
// CHECK-NEXT: <tr><td>[[L:<font color="#0072B2">l</font>]]</td><td align="right">512</td>
// CHECK-SAME:   <td><font color="#0072B2">temporal</font></td>
// CHECK-SAME:   <td align="left">dependent reductions max(reduce_max1) -&gt; add(reduce_add3) -&gt; add(matmul5), rewritten by Update-then-Aggregate
// CHECK-SAME:   <br align="left"/>updates: reduce_max1 independent, reduce_add3 rescaled, matmul5 rescaled<br align="left"/></td></tr>
// CHECK-NEXT: <tr><td>[[K:<font color="#0072B2">k</font>]]</td><td align="right">64</td>
// CHECK-SAME:   <td><font color="#0072B2">temporal</font></td>
// CHECK-SAME:   <td align="left">independent reduction add(matmul0), accumulated across slices<br align="left"/>updates: matmul0 independent<br align="left"/></td></tr>
// A ']' before a tag is escaped: Graphviz misreads it.
// CHECK-NEXT: <tr><td colspan="4" align="left">schedule: spatial [[[M]] = 64&#93;, temporal [[[L]] = 64&#93;, grid [8&#93;,
// CHECK-SAME:   threads 1, smem {{[0-9]+}}, regs {{[0-9]+}}, strategy loops, target cpu</td></tr>
// CHECK-NEXT: <tr><td colspan="4" align="left">mappings: 6 o2a, 4 a2o</td></tr>
// CHECK-NEXT: </table>>];

// Inputs, then each space with the tensors it reads and writes.
// CHECK-NEXT: "g0.in0" [shape=ellipse, label=<in0<br/>[[[M]], [[K]]&#93;>];
// CHECK-NEXT: "g0.in1" [shape=ellipse, label=<in1<br/>[[[L]], [[K]]&#93;>];
// CHECK-NEXT: "g0.in2" [shape=ellipse, label=<in2<br/>[[[L]], [[N]]&#93;>];
// The space's location is short in its label, whole in its tooltip.
// CHECK-NEXT: "g0.matmul0" [shape=box, style=solid, label=<<b>matmul0</b><br/>[[[M]], [[L]], [[K]]&#93;<br/>linalg.matmul
// CHECK-SAME:   <br/><font point-size="10">attention_paper.mlir:25:9</font>>,
// CHECK-SAME:   tooltip="linalg.matmul at {{.*}}examples{{/|\\\\}}attention_paper.mlir:25:9"];
// CHECK-NEXT: "g0.in0" -> "g0.matmul0" [label=<o2a([[L]])>, color="#0072B2"];
// CHECK-NEXT: "g0.in1" -> "g0.matmul0" [label=<o2a([[M]])>, color="#009E73"];
// CHECK-NEXT: "g0.matmul0.out" [shape=ellipse, label=<matmul0.out<br/>[[[M]], [[L]]&#93;>];
// CHECK-NEXT: "g0.matmul0" -> "g0.matmul0.out" [label=<a2o([[K]], add)>, color="#0072B2"];
// CHECK-NEXT: "g0.reduce_max1" [shape=box, style=solid, label=<<b>reduce_max1</b><br/>[[[M]], [[L]]&#93;<br/>linalg.generic
// CHECK-SAME:   attention_paper.mlir:32:10</font>>
// One-to-one edges are gray.
// CHECK-NEXT: "g0.matmul0.out" -> "g0.reduce_max1" [label="o2o", color="gray40", fontcolor="gray40"];
// CHECK-NEXT: "g0.reduce_max1.out" [shape=ellipse, label=<reduce_max1.out<br/>[[[M]]&#93;>];
// CHECK-NEXT: "g0.reduce_max1" -> "g0.reduce_max1.out" [label=<a2o([[L]], max)>, color="#0072B2"];
// Only the output has a double border.
// CHECK-NOT:  peripheries
// CHECK:      "g0.divf4.out" -> "g0.matmul5" [label=<o2a([[N]])>, color="#E69F00"];
// CHECK-NEXT: "g0.in2" -> "g0.matmul5" [label=<o2a([[M]])>, color="#009E73"];
// CHECK-NEXT: "g0.matmul5.out" [shape=ellipse, label=<matmul5.out<br/>[[[M]], [[N]]&#93;>, peripheries=2, tooltip="graph output #0"];
// CHECK-NEXT: "g0.matmul5" -> "g0.matmul5.out" [label=<a2o([[L]], add)>, color="#0072B2"];
// CHECK-NEXT: {{^  }$}}
// CHECK-NEXT: {{^}$}}

// UNSCHEDULED:     "g0.legend"
// UNSCHEDULED-NOT: schedule:
// UNSCHEDULED:     <tr><td colspan="4" align="left">mappings: 6 o2a, 4 a2o</td></tr>
// UNSCHEDULED-NEXT: </table>>];
