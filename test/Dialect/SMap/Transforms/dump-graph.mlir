// The paper's attention figure: QK = Q.K^T; Max = rowmax(QK);
// Exp = exp(QK - Max); Sum = rowsum(Exp); P = Exp / Sum; Out = P.V.
// Its SMG has 6 one-to-all mappings (Q over l, K over m, Max over l, Sum over
// l, P over n, V over m) and 4 all-to-one (k in the first GEMM, l in max,
// sum and the second GEMM).

// RUN: spacefusion-opt --smap-form-graphs --smap-dump-graph %examples/attention_paper.mlir -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=TEXT
// RUN: spacefusion-opt --smap-form-graphs --smap-dump-graph=format=dot %examples/attention_paper.mlir -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=DOT
// RUN: spacefusion-opt --smap-form-graphs --smap-dump-graph="format=dot output=%t.dot" %examples/attention_paper.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// The dump does not change the IR.
// RUN: spacefusion-opt --smap-form-graphs %examples/attention_paper.mlir > %t.before.mlir
// RUN: spacefusion-opt --smap-dump-graph %t.before.mlir -o %t.after.mlir > /dev/null
// RUN: diff %t.before.mlir %t.after.mlir
// RUN: not spacefusion-opt --smap-dump-graph=format=svg %s 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// RUN: not spacefusion-opt --smap-dump-graph="output=%t.missing/dir/x.txt" %s 2>&1 | FileCheck %s --check-prefix=BADFILE

// TEXT:      === SMG graph 0 in @attention_paper ===
// TEXT-NEXT: dims:
// TEXT-NEXT:   m  512  parallel
// TEXT-NEXT:   n   64  parallel_recompute divf4 is broadcast into matmul5 along it
// TEXT-NEXT:   l  512  temporal           dependent reductions max(reduce_max1) -> add(reduce_add3) -> add(matmul5)
// TEXT-NEXT:        updates: reduce_max1 independent, reduce_add3 rescaled, matmul5 rescaled
// TEXT-NEXT:   k   64  temporal           independent reduction add(matmul0)
// TEXT-NEXT:        updates: matmul0 independent
// TEXT-NEXT: spaces:
// TEXT-NEXT:   matmul0 [m, l, k] linalg.matmul
// TEXT-NEXT:     <- in0 [m, k]: o2a(l)
// TEXT-NEXT:     <- in1 [l, k]: o2a(m)
// TEXT-NEXT:     -> matmul0.out [m, l]: a2o(k, add)
// TEXT-NEXT:   reduce_max1 [m, l] linalg.generic
// TEXT-NEXT:     <- matmul0.out [m, l]: o2o
// TEXT-NEXT:     -> reduce_max1.out [m]: a2o(l, max)
// TEXT-NEXT:   exp2 [m, l] linalg.generic
// TEXT-NEXT:     <- matmul0.out [m, l]: o2o
// TEXT-NEXT:     <- reduce_max1.out [m]: o2a(l)
// TEXT-NEXT:     -> exp2.out [m, l]: o2o
// TEXT-NEXT:   reduce_add3 [m, l] linalg.generic
// TEXT-NEXT:     <- exp2.out [m, l]: o2o
// TEXT-NEXT:     -> reduce_add3.out [m]: a2o(l, add)
// TEXT-NEXT:   divf4 [m, l] linalg.generic
// TEXT-NEXT:     <- exp2.out [m, l]: o2o
// TEXT-NEXT:     <- reduce_add3.out [m]: o2a(l)
// TEXT-NEXT:     -> divf4.out [m, l]: o2o
// TEXT-NEXT:   matmul5 [m, n, l] linalg.matmul
// TEXT-NEXT:     <- divf4.out [m, l]: o2a(n)
// TEXT-NEXT:     <- in2 [l, n]: o2a(m)
// TEXT-NEXT:     -> matmul5.out [m, n]: a2o(l, add)
// TEXT-NEXT: outputs: matmul5.out
// TEXT-NEXT: mappings: 6 o2a, 4 a2o

// One document, one cluster per graph; nodes are named after their graph.
// DOT:      digraph smg {
// DOT:      subgraph "cluster_g0" {
// DOT-NEXT: label="graph 0 in @attention_paper";
// DOT-NEXT: "g0.legend" [shape=plain, label=<<table
// DOT:      <tr><td>[[M:<font color="#009E73">m</font>]]</td>
// DOT:      <tr><td>[[N:<font color="#E69F00">n</font>]]</td>
// DOT:      <tr><td>[[L:<font color="#0072B2">l</font>]]</td>
// DOT:      <tr><td>[[K:<font color="#0072B2">k</font>]]</td>
// DOT:      <tr><td colspan="4" align="left">mappings: 6 o2a, 4 a2o</td></tr>
// DOT-NEXT: </table>>];
// DOT-DAG:  "g0.in0" [shape=ellipse, label=<in0<br/>[[[M]], [[K]]&#93;>];
// DOT-DAG:  "g0.in1" [shape=ellipse, label=<in1<br/>[[[L]], [[K]]&#93;>];
// DOT-DAG:  "g0.in2" [shape=ellipse, label=<in2<br/>[[[L]], [[N]]&#93;>];
// DOT-DAG:  "g0.matmul0" [shape=box, style=solid, label=<<b>matmul0</b><br/>[[[M]], [[L]], [[K]]&#93;<br/>linalg.matmul<br/>
// DOT-DAG:  "g0.in0" -> "g0.matmul0" [label=<o2a([[L]])>, color="#0072B2"];
// DOT-DAG:  "g0.in1" -> "g0.matmul0" [label=<o2a([[M]])>, color="#009E73"];
// DOT-DAG:  "g0.matmul0" -> "g0.matmul0.out" [label=<a2o([[K]], add)>, color="#0072B2"];
// DOT-DAG:  "g0.matmul0.out" -> "g0.reduce_max1" [label="o2o", color="gray40", fontcolor="gray40"];
// DOT-DAG:  "g0.reduce_max1" -> "g0.reduce_max1.out" [label=<a2o([[L]], max)>, color="#0072B2"];
// DOT-DAG:  "g0.reduce_max1.out" -> "g0.exp2" [label=<o2a([[L]])>, color="#0072B2"];
// DOT-DAG:  "g0.reduce_add3" -> "g0.reduce_add3.out" [label=<a2o([[L]], add)>, color="#0072B2"];
// DOT-DAG:  "g0.reduce_add3.out" -> "g0.divf4" [label=<o2a([[L]])>, color="#0072B2"];
// DOT-DAG:  "g0.divf4.out" -> "g0.matmul5" [label=<o2a([[N]])>, color="#E69F00"];
// DOT-DAG:  "g0.in2" -> "g0.matmul5" [label=<o2a([[M]])>, color="#009E73"];
// DOT-DAG:  "g0.matmul5" -> "g0.matmul5.out" [label=<a2o([[L]], add)>, color="#0072B2"];
// DOT:      {{^  }$}}
// DOT-NEXT: {{^}$}}
// DOT-NOT:  {{.}}

// BADFORMAT: error: smap-dump-graph: unknown format 'svg' (expected 'text' or 'dot')
// BADFILE: error: smap-dump-graph: cannot open output file
func.func @empty() {
  return
}
