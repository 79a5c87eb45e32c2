// Small helpers for writing ONNX graphs from Node with onnx-proto, so tests can build
// real (tiny) models that onnxruntime-node loads through the same path as published ones.
import onnxProto, { type onnx } from 'onnx-proto';

const O = onnxProto.onnx;
type Dim = number | string;

export const FLOAT = O.TensorProto.DataType.FLOAT;
export const INT64 = O.TensorProto.DataType.INT64;

/** A float initializer of the given shape (row-major values). */
export function floatTensor(name: string, dims: number[], values: number[]): onnx.ITensorProto {
  const size = dims.reduce((a, b) => a * b, 1);
  if (values.length !== size) throw new Error(`${name}: ${values.length} values for ${dims}`);
  return { name, dims, dataType: FLOAT, floatData: values };
}

/** An int64 initializer (axes, shapes, slice bounds). */
export function int64Tensor(name: string, values: number[]): onnx.ITensorProto {
  return { name, dims: [values.length], dataType: INT64, int64Data: values };
}

export function valueInfo(name: string, elemType: number, dims: Dim[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: {
          dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
        },
      },
    },
  };
}

interface Attr {
  name: string;
  i?: number;
  ints?: number[];
}

export function node(
  opType: string,
  inputs: string[],
  outputs: string[],
  attrs: Attr[] = [],
): onnx.INodeProto {
  return {
    opType,
    input: inputs,
    output: outputs,
    name: `${opType}_${outputs[0]}`,
    attribute: attrs.map((a) =>
      a.ints !== undefined
        ? { name: a.name, ints: a.ints, type: O.AttributeProto.AttributeType.INTS }
        : { name: a.name, i: a.i ?? 0, type: O.AttributeProto.AttributeType.INT },
    ),
  };
}

export interface GraphSpec {
  name: string;
  nodes: onnx.INodeProto[];
  initializers: onnx.ITensorProto[];
  inputs: onnx.IValueInfoProto[];
  outputs: onnx.IValueInfoProto[];
}

/** Serialises a graph as an opset-13 model (IR version 7). */
export function encodeModel(g: GraphSpec): Uint8Array {
  const model: onnx.IModelProto = {
    irVersion: 7,
    producerName: 'rubrica-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: g.name,
      node: g.nodes,
      initializer: g.initializers,
      input: g.inputs,
      output: g.outputs,
    },
  };
  return O.ModelProto.encode(O.ModelProto.create(model)).finish();
}
