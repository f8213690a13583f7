// Several graphs make one DOT document (`dot` reads only the first digraph
// of a file): one cluster per graph, titled with its number and function,
// its nodes named after the graph, so that names repeated across graphs
// (in0, contract0) stay apart.

// Attention cut into three graphs in one function.
// RUN: spacefusion-opt %examples/attention.mlir '--smap-form-graphs=max-group-size=3' \
// RUN:   --smap-dump-graph=format=dot -o /dev/null | FileCheck %s --check-prefix=SPLIT
// Two functions of one module.
// RUN: spacefusion-opt %s --smap-form-graphs --smap-dump-graph=format=dot -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=MODULE

// SPLIT:          digraph smg {
// SPLIT-NEXT:     compound=true;
// SPLIT-NOT:      digraph
// SPLIT:          subgraph "cluster_g0" {
// SPLIT-NEXT:     label="graph 0 in @attention";
// SPLIT:          "g0.in0" [shape=ellipse
// SPLIT:          "g0.contract0" [shape=box
// Both results the rest of the function reads are outputs.
// SPLIT:          "g0.mulf1.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #0"];
// SPLIT:          "g0.reduce_max2.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #1"];
// SPLIT-NEXT:     "g0.reduce_max2" -> "g0.reduce_max2.out"
// SPLIT-NEXT:     {{^  }$}}
// SPLIT-NEXT:     subgraph "cluster_g1" {
// SPLIT-NEXT:     label="graph 1 in @attention";
// SPLIT-NEXT:     "g1.legend"
// SPLIT:          "g1.in0" [shape=ellipse
// SPLIT:          "g1.divf2.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #0"];
// SPLIT-NEXT:     "g1.divf2" -> "g1.divf2.out"
// SPLIT-NEXT:     {{^  }$}}
// SPLIT-NEXT:     subgraph "cluster_g2" {
// SPLIT-NEXT:     label="graph 2 in @attention";
// SPLIT-NEXT:     "g2.legend"
// SPLIT:          "g2.in0" [shape=ellipse
// SPLIT:          "g2.contract0" [shape=box
// SPLIT:          "g2.contract0.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #0"];
// SPLIT-NEXT:     "g2.contract0" -> "g2.contract0.out"
// SPLIT-NEXT:     {{^  }$}}
// SPLIT-NEXT:     {{^}$}}
// SPLIT-NOT:      {{.}}

// MODULE:      digraph smg {
// MODULE:      subgraph "cluster_g0" {
// MODULE-NEXT: label="graph 0 in @shifted_sum";
// MODULE:      <tr><td>[[M:<font color="#009E73">m</font>]]</td>
// MODULE:      <tr><td>[[L:<font color="#0072B2">l</font>]]</td>
// MODULE:      "g0.in1" [shape=ellipse, label=<in1<br/>[&#93;>];
// The shift is broadcast along both dims: one line per dim, in its color.
// MODULE:      "g0.in1" -> "g0.subf0" [label=<o2a([[M]]), o2a([[L]])>, color="#009E73:#0072B2"];
// MODULE:      "g0.reduce1" [shape=box, style=solid, label=<<b>reduce1</b><br/>[[[M]], [[L]]&#93;<br/>linalg.reduce
// MODULE-SAME:   <br/><font point-size="10">dump-graph-dot-multi.mlir:[[# @LINE + 22]]:10</font>>
// MODULE:      "g0.reduce1" -> "g0.reduce1.out" [label=<a2o([[L]], add)>, color="#0072B2"];
// MODULE-NEXT: {{^  }$}}
// MODULE-NEXT: subgraph "cluster_g1" {
// MODULE-NEXT: label="graph 1 in @relu";
// MODULE:      "g1.in0" [shape=ellipse
// MODULE:      "g1.maximumf0.out" [shape=ellipse, {{.*}}, peripheries=2, tooltip="graph output #0"];
// MODULE:      {{^}$}}
// MODULE-NOT:  {{.}}

func.func @shifted_sum(%x: tensor<64x128xf32>, %shift: tensor<f32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(m, l) -> (m, l)>, affine_map<(m, l) -> ()>, affine_map<(m, l) -> (m, l)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %shift : tensor<64x128xf32>, tensor<f32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%s : tensor<64x128xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %sum : tensor<64xf32>
}

func.func @relu(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
