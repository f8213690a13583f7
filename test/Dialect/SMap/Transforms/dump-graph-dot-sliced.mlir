// After slicing, a graph holds smap.spatial_slice / smap.temporal_slice ops,
// which the SMG does not describe (it describes the graph before slicing):
// the dump draws such a graph from what it records (dims with their classes
// and reasons, schedule) and its slices, and the per-block graph a spatial
// slice holds inside the slice's cluster, numbered after it. A per-block
// graph that is not temporally sliced is drawn whole from its SMG. Before,
// the dump failed on the outer graph and crashed on a temporally sliced one.

// Spatially and temporally sliced.
// RUN: spacefusion-opt %examples/attention.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:64 temporal=l:64' --smap-spatial-slice --smap-temporal-slice \
// RUN:   -o %t.sliced.mlir
// RUN: spacefusion-opt %t.sliced.mlir --smap-dump-graph=format=dot -o %t.after.mlir | FileCheck %s
// RUN: spacefusion-opt %t.sliced.mlir --smap-dump-graph -o /dev/null | FileCheck %s --check-prefix=TEXT
// The same in one pipeline, and the dump changes nothing.
// RUN: spacefusion-opt %examples/attention.mlir --smap-form-graphs --smap-set-target=target=cpu --smap-analyze \
// RUN:   '--smap-schedule=spatial=b:1,h:1,m:64 temporal=l:64' --smap-spatial-slice --smap-temporal-slice \
// RUN:   --smap-dump-graph=format=dot -o /dev/null | FileCheck %s
// RUN: diff %t.sliced.mlir %t.after.mlir

// Spatially sliced only, with a causal mask: the block's graph is drawn
// whole, and the legend says which key slices the mask lets the temporal
// slicer skip.
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_causal_frontend_bf16.mlir --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=spatial=h:1,m:64 temporal=l:128' \
// RUN:   --smap-spatial-slice --smap-dump-graph=format=dot -o /dev/null | FileCheck %s --check-prefix=CAUSAL
// Temporally sliced too, the loop stops at the last key slice the mask
// leaves visible.
// RUN: spacefusion-opt %S/../../../Pipelines/Inputs/attention_causal_frontend_bf16.mlir --smap-form-graphs \
// RUN:   --smap-set-target=target=cpu --smap-analyze '--smap-schedule=spatial=h:1,m:64 temporal=l:128' \
// RUN:   --smap-spatial-slice --smap-temporal-slice --smap-dump-graph -o /dev/null | FileCheck %s --check-prefix=CAUSAL-TEXT

// CHECK:      digraph smg {
// CHECK:      subgraph "cluster_g0" {
// CHECK-NEXT: label="graph 0 in @attention";
// CHECK-NEXT: "g0.legend" [shape=plain
// CHECK-NEXT: <tr><td><b>dim</b></td>
// CHECK-NEXT: <tr><td>[[B:<font color="#009E73">b</font>]]</td><td align="right">2</td>
// CHECK-NEXT: <tr><td>[[H:<font color="#009E73">h</font>]]</td><td align="right">8</td>
// CHECK-NEXT: <tr><td>[[M:<font color="#009E73">m</font>]]</td><td align="right">512</td>
// Reasons as smap-analyze recorded them.
// CHECK-NEXT: <tr><td><font color="#E69F00">n</font></td><td align="right">64</td><td><font color="#E69F00">parallel_recompute</font></td>
// CHECK-SAME:   <td align="left">every block recomputes contract0, mulf1, reduce_max2, exp3, reduce_add4, divf5</td></tr>
// CHECK-NEXT: <tr><td>[[L:<font color="#0072B2">l</font>]]</td><td align="right">512</td><td><font color="#0072B2">temporal</font></td>
// CHECK-SAME:   <td align="left">dependent reductions max(reduce_max2) -&gt; add(reduce_add4) -&gt; add(contract6), rewritten by Update-then-Aggregate</td></tr>
// CHECK-NEXT: <tr><td><font color="#0072B2">k</font></td><td align="right">64</td>
// CHECK-NEXT: <tr><td colspan="4" align="left">schedule: spatial [[[B]] = 1, [[H]] = 1, [[M]] = 64&#93;, temporal [[[L]] = 64&#93;, grid [2, 8, 8&#93;,
// CHECK-NEXT: <tr><td colspan="4" align="left">sliced: the SMG describes the graph before slicing</td></tr>
// CHECK-NEXT: </table>>];
// CHECK-NEXT: subgraph "cluster_g0.spatial_slice0" {
// CHECK-NEXT: style=dashed;
// CHECK-NEXT: label=<spatial_slice [[B]] = 1, [[H]] = 1, [[M]] = 64 (grid 2 x 8 x 8)>;
// CHECK-NEXT: subgraph "cluster_g1" {
// CHECK-NEXT: label="graph 1 in @attention, a block of graph 0";
// CHECK-NEXT: "g1.legend" [shape=plain
// CHECK-NEXT: <tr><td><b>dim</b></td>
// CHECK-NEXT: <tr><td>[[M]]</td><td align="right">64</td>
// CHECK:      <tr><td colspan="4" align="left">schedule: spatial [&#93;, temporal [[[L]] = 64&#93;, grid [&#93;,
// CHECK-NEXT: <tr><td colspan="4" align="left">sliced: the SMG describes the graph before slicing</td></tr>
// CHECK-NEXT: </table>>];
// CHECK-NEXT: "g1.temporal_slice0" [shape=box, style="rounded,bold", color="#0072B2",
// CHECK-SAME:   label=<temporal_slice [[L]] = 64 (8 slices), 3 running values<br/><font point-size="10">{{[^/<]+}}.mlir:{{[0-9]+:[0-9]+}}</font>>,
// CHECK-SAME:   tooltip="smap.temporal_slice at {{.+}}.mlir:{{[0-9]+:[0-9]+}}"];
// CHECK-NEXT: {{^  }$}}
// CHECK-NEXT: {{^  }$}}
// CHECK-NEXT: {{^  }$}}
// CHECK-NEXT: {{^}$}}
// CHECK-NOT:  {{.}}

// TEXT:      === SMG graph 0 in @attention ===
// TEXT-NEXT: dims:
// TEXT-NEXT:   b          2  parallel{{$}}
// TEXT-NEXT:   h          8  parallel{{$}}
// TEXT-NEXT:   m        512  parallel{{$}}
// TEXT-NEXT:   n         64  parallel_recompute every block recomputes contract0, mulf1, reduce_max2, exp3, reduce_add4, divf5
// TEXT-NEXT:   l        512  temporal           dependent reductions
// TEXT-NEXT:   k         64  temporal           independent reduction add(contract0)
// TEXT-NEXT: schedule: spatial [b = 1, h = 1, m = 64], temporal [l = 64], grid [2, 8, 8], threads 1,
// TEXT-SAME:   strategy loops, target cpu
// TEXT-NEXT: sliced (the SMG describes the graph before slicing):
// TEXT-NEXT:   spatial_slice b = 1, h = 1, m = 64 (grid 2 x 8 x 8)
// TEXT-NEXT: === SMG graph 1 in @attention, a block of graph 0 ===
// TEXT-NEXT: dims:
// TEXT-NEXT:   m         64  parallel{{$}}
// TEXT:      schedule: spatial [], temporal [l = 64], grid [],
// TEXT-NEXT: sliced (the SMG describes the graph before slicing):
// TEXT-NEXT:   temporal_slice l = 64 (8 slices), 3 running values
// TEXT-NOT:  {{.}}

// CAUSAL:      subgraph "cluster_g0" {
// CAUSAL-NEXT: label="graph 0 in @attention_causal";
// CAUSAL:      subgraph "cluster_g0.spatial_slice0" {
// CAUSAL:      subgraph "cluster_g1" {
// CAUSAL-NEXT: label="graph 1 in @attention_causal, a block of graph 0";
// CAUSAL:      <tr><td>[[L:<font color="#0072B2">l</font>]]</td><td align="right">1024</td>
// The block's offset along m is its input #4, whose keys from 64 on are
// masked in every row.
// CAUSAL:      <tr><td colspan="4" align="left">mask along [[L]]: skips the slices it hides: keys from 64 + input #4 on are masked in every row (select1)</td></tr>
// CAUSAL-NEXT: <tr><td colspan="4" align="left">mask along [[L]]: select1 tests only the slices that reach beyond the keys visible in every row (below 1 + input #4)</td></tr>
// CAUSAL-NEXT: <tr><td colspan="4" align="left">mappings: 6 o2a, 4 a2o</td></tr>
// CAUSAL:      "g1.in4" [shape=ellipse, label=<in4<br/>[&#93;>];
// CAUSAL:      "g1.select1" [shape=box, style=solid, label=<<b>select1</b>
// CAUSAL-SAME:   attention_causal_frontend_bf16.mlir:17:9</font>>
// CAUSAL:      "g1.truncf7.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #0"];

// CAUSAL-TEXT:      === SMG graph 1 in @attention_causal, a block of graph 0 ===
// CAUSAL-TEXT:      sliced (the SMG describes the graph before slicing):
// CAUSAL-TEXT-NEXT:   temporal_slice l = 128 (8 slices), 3 running values, up to the last slice a mask leaves visible
