import type { StructuralSchema } from '@orchard/schema';

/**
 * Converts a schema in upstream structured-merge-diff's format (`types: [{name, map|list|scalar}]`,
 * as in the Go anchor's inputs) into a StructuralSchema with the same merge markers, so the
 * differential tests and the benchmark run our code on the very schema the Go library used.
 */
export interface SmdSchema {
  types: SmdNamedType[];
}
interface SmdNamedType extends SmdAtom {
  name: string;
}
interface SmdAtom {
  scalar?: string;
  list?: { elementType: SmdTypeRef; elementRelationship?: string; keys?: string[] };
  map?: {
    fields?: { name: string; type: SmdTypeRef; default?: unknown }[];
    elementType?: SmdTypeRef;
    elementRelationship?: string;
  };
}
type SmdTypeRef = SmdAtom & { namedType?: string };

export function smdSchemaToStructural(doc: SmdSchema, root: string): StructuralSchema {
  const named = new Map(doc.types.map((t) => [t.name, t]));
  const convert = (ref: SmdTypeRef): StructuralSchema => {
    const atom: SmdAtom = ref.namedType !== undefined ? (named.get(ref.namedType) as SmdAtom) : ref;
    // Upstream's __untyped_deduced_ (granular maps) is a preserve-unknown-fields value; an untyped
    // scalar or __untyped_atomic_ is replaced whole, like int-or-string.
    if (atom.scalar === 'untyped')
      return atom.map && atom.map.elementRelationship !== 'atomic'
        ? { preserveUnknownFields: true }
        : { intOrString: true };
    if (atom.map) {
      const s: StructuralSchema = { type: 'object' };
      if (atom.map.fields) {
        s.properties = {};
        for (const f of atom.map.fields) {
          const p = { ...convert(f.type) };
          if (f.default !== undefined) p.default = f.default;
          s.properties[f.name] = p;
        }
      }
      if (atom.map.elementType) s.additionalProperties = convert(atom.map.elementType);
      if (atom.map.elementRelationship === 'atomic') s.mapType = 'atomic';
      return s;
    }
    if (atom.list) {
      const rel = atom.list.elementRelationship;
      const s: StructuralSchema = { type: 'array', items: convert(atom.list.elementType) };
      if (rel === 'associative') {
        if (atom.list.keys && atom.list.keys.length > 0) {
          s.listType = 'map';
          s.listMapKeys = atom.list.keys;
        } else s.listType = 'set';
      } else s.listType = 'atomic';
      return s;
    }
    return { type: atom.scalar === 'numeric' ? 'number' : atom.scalar === 'boolean' ? 'boolean' : 'string' };
  };
  return convert({ namedType: root });
}
