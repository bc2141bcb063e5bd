/**
 * The Java source of the generated State Processor API job (`migration-job`): per carried operator a
 * KeyedStateReaderFunction that reads the Kryo-held states with the old Kryo configuration and emits one Row per
 * key (the values as their Protobuf bytes), the operator list/union states read as streams, and a bootstrap
 * function that declares the same states with ProtobufTypeInformation and writes the values back. Flink 1.20 and
 * 2.x differ only in the rich functions' `open` signature.
 */
import type { CarriedOperator, CarriedState } from './select-kryo-migration-states';
import type { KryoConfigEntry } from './describe-kryo-config';
import type { MigrationFlinkLine } from './kryo-migration-job-templates';

export const MIGRATION_PACKAGE = 'migration.kryo';
export const MIGRATION_CLASS = 'KryoToProtobufMigration';

export function javaString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c <= 0xffff) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else
      out += ch
        .split('')
        .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
  }
  return `${out}"`;
}

/** `a.b.Outer$Inner` → `a.b.Outer.Inner` (a generated message class as Java source names it). */
export function javaSourceName(binaryName: string): string {
  return binaryName.replace(/\$/g, '.');
}

function openSignature(line: MigrationFlinkLine): string {
  return line === '1.20'
    ? 'public void open(org.apache.flink.configuration.Configuration parameters)'
    : 'public void open(org.apache.flink.api.common.functions.OpenContext openContext)';
}

const FIRST_STATE_FIELD = 3;

function identifierFor(op: CarriedOperator): string {
  return op.operator.uid !== undefined
    ? `OperatorIdentifier.forUid(${javaString(op.operator.uid)})`
    : `OperatorIdentifier.forUidHash(${javaString(op.operator.id)})`;
}

function rowFieldType(s: CarriedState): string {
  if (s.kind === 'MAP') return `Types.MAP(${s.userKey!.typeInfo}, BYTES)`;
  if (s.kind === 'LIST') return 'Types.LIST(BYTES)';
  return 'BYTES';
}

function stateJavaType(s: CarriedState): string {
  const m = javaSourceName(s.messageClass);
  if (s.kind === 'MAP') return `MapState<${s.userKey!.javaType}, ${m}>`;
  if (s.kind === 'LIST' || s.kind === 'OPERATOR_LIST' || s.kind === 'OPERATOR_UNION') return `ListState<${m}>`;
  return `ValueState<${m}>`;
}

function descriptor(s: CarriedState, typeInfo: string): string {
  const m = javaSourceName(s.messageClass);
  const name = javaString(s.name);
  if (s.kind === 'MAP') return `new MapStateDescriptor<>(${name}, ${s.userKey!.typeInfo}, ${typeInfo})`;
  if (s.kind === 'VALUE') return `new ValueStateDescriptor<>(${name}, ${typeInfo})`;
  return `new ListStateDescriptor<${m}>(${name}, ${typeInfo})`;
}

function getter(s: CarriedState): string {
  if (s.kind === 'MAP') return 'getMapState';
  if (s.kind === 'VALUE') return 'getState';
  return 'getListState';
}

function oldType(s: CarriedState): string {
  return `TypeInformation.of(${javaSourceName(s.messageClass)}.class)`;
}

function newType(s: CarriedState): string {
  return `ProtobufTypeInformation.newBuilder(${javaSourceName(s.messageClass)}.class).build()`;
}

function renderReader(op: CarriedOperator, n: number, line: MigrationFlinkLine): string {
  const key = op.key!.javaType;
  const fields = op.keyed.map((s, i) => `    private transient ${stateJavaType(s)} s${i}; // ${s.name}`).join('\n');
  const opens = op.keyed.map((s, i) => `      s${i} = getRuntimeContext().${getter(s)}(${descriptor(s, oldType(s))});`).join('\n');
  const reads = op.keyed
    .map((s, i) => {
      const m = javaSourceName(s.messageClass);
      const f = FIRST_STATE_FIELD + i;
      if (s.kind === 'VALUE') return `      ${m} v${i} = s${i}.value();\n      if (v${i} != null) row.setField(${f}, v${i}.toByteArray());`;
      if (s.kind === 'MAP')
        return `      Map<${s.userKey!.javaType}, byte[]> v${i} = new LinkedHashMap<>();\n      for (Map.Entry<${s.userKey!.javaType}, ${m}> e : s${i}.entries()) v${i}.put(e.getKey(), e.getValue().toByteArray());\n      if (!v${i}.isEmpty()) row.setField(${f}, v${i});`;
      return `      List<byte[]> v${i} = new ArrayList<>();\n      Iterable<${m}> it${i} = s${i}.get();\n      if (it${i} != null) for (${m} e : it${i}) v${i}.add(e.toByteArray());\n      if (!v${i}.isEmpty()) row.setField(${f}, v${i});`;
    })
    .join('\n');
  return `  /** Reads the keyed states of operator ${op.operator.uid ?? op.operator.id} with the old Kryo configuration: one Row per key. */
  static final class Operator${n}Reader extends KeyedStateReaderFunction<${key}, Row> {
    private static final long serialVersionUID = 1L;
${fields}

    @Override
    ${openSignature(line)} {
${opens}
    }

    @Override
    public void readKey(${key} key, Context context, Collector<Row> out) throws Exception {
      Row row = new Row(${FIRST_STATE_FIELD + op.keyed.length});
      row.setField(0, key);
      row.setField(1, KEYED_ROW);
${reads}
      out.collect(row);
    }
  }
`;
}

function renderWriter(op: CarriedOperator, n: number, line: MigrationFlinkLine): string {
  const keyed = op.keyed.length > 0;
  const key = op.key?.javaType ?? 'Integer';
  const fields = [
    ...op.keyed.map((s, i) => `    private transient ${stateJavaType(s)} s${i}; // ${s.name}`),
    ...op.operatorStates.map(
      (s, j) =>
        `    private transient ListState<${javaSourceName(s.messageClass)}> o${j}; // ${s.name} (${s.kind})\n    private transient List<${javaSourceName(s.messageClass)}> o${j}Elements;`,
    ),
  ].join('\n');
  const opens = op.keyed.map((s, i) => `      s${i} = getRuntimeContext().${getter(s)}(${descriptor(s, newType(s))});`).join('\n');
  const operatorCases = op.operatorStates
    .map((s, j) => `        case ${j}: o${j}Elements.add(${javaSourceName(s.messageClass)}.parseFrom((byte[]) row.getField(2))); return;`)
    .join('\n');
  const writes = op.keyed
    .map((s, i) => {
      const m = javaSourceName(s.messageClass);
      const f = FIRST_STATE_FIELD + i;
      if (s.kind === 'VALUE') return `      byte[] v${i} = (byte[]) row.getField(${f});\n      if (v${i} != null) s${i}.update(${m}.parseFrom(v${i}));`;
      if (s.kind === 'MAP')
        return `      @SuppressWarnings("unchecked")\n      Map<${s.userKey!.javaType}, byte[]> v${i} = (Map<${s.userKey!.javaType}, byte[]>) row.getField(${f});\n      if (v${i} != null) for (Map.Entry<${s.userKey!.javaType}, byte[]> e : v${i}.entrySet()) s${i}.put(e.getKey(), ${m}.parseFrom(e.getValue()));`;
      return `      @SuppressWarnings("unchecked")\n      List<byte[]> v${i} = (List<byte[]>) row.getField(${f});\n      if (v${i} != null) {\n        List<${m}> l${i} = new ArrayList<>(v${i}.size());\n        for (byte[] b : v${i}) l${i}.add(${m}.parseFrom(b));\n        s${i}.update(l${i});\n      }`;
    })
    .join('\n');
  const inits = op.operatorStates
    .map((s, j) => {
      const m = javaSourceName(s.messageClass);
      const get = s.kind === 'OPERATOR_UNION' ? 'getUnionListState' : 'getListState';
      return `      o${j} = context.getOperatorStateStore().${get}(new ListStateDescriptor<${m}>(${javaString(s.name)}, ${newType(s)}));\n      o${j}Elements = new ArrayList<>();`;
    })
    .join('\n');
  const snapshots = op.operatorStates.map((_, j) => `      o${j}.update(o${j}Elements);`).join('\n');
  const base = keyed ? `KeyedStateBootstrapFunction<${key}, Row> implements CheckpointedFunction` : 'StateBootstrapFunction<Row>';
  return `  /** Writes operator ${op.operator.uid ?? op.operator.id}'s states with ProtobufTypeInformation. */
  static final class Operator${n}Writer extends ${base} {
    private static final long serialVersionUID = 1L;
${fields}
${
  keyed
    ? `
    @Override
    ${openSignature(line)} {
${opens}
    }
`
    : ''
}
    @Override
    public void processElement(Row row, Context context) throws Exception {
      int tag = (Integer) row.getField(1);
      switch (tag) {
${operatorCases}
        default: break;
      }
      if (tag != KEYED_ROW) throw new IllegalStateException("unexpected row tag " + tag);
${writes}
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
${inits}
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
${snapshots}
    }
  }
`;
}

function renderTransformation(op: CarriedOperator, n: number): string {
  const keyed = op.keyed.length > 0;
  const rowTypes = [op.key?.typeInfo ?? 'Types.INT', 'Types.INT', 'BYTES', ...op.keyed.map(rowFieldType)];
  const streams: string[] = [];
  if (keyed) streams.push(`old.readKeyedState(id, new Operator${n}Reader(), ${op.key!.typeInfo}, ROW_${n})`);
  op.operatorStates.forEach((s, j) => {
    const read = s.kind === 'OPERATOR_UNION' ? 'readUnionState' : 'readListState';
    const keyLiteral = op.key?.literal ?? 'null';
    streams.push(
      `old.${read}(id, ${javaString(s.name)}, ${oldType(s)})\n        .map(v -> withTag(${FIRST_STATE_FIELD + op.keyed.length}, ${keyLiteral}, ${j}, v.toByteArray())).returns(ROW_${n})`,
    );
  });
  const union = streams.length === 1 ? streams[0]! : `${streams[0]!}\n        .union(${streams.slice(1).join(',\n          ')})`;
  const transform = keyed
    ? `.keyBy(row -> (${op.key!.javaType}) row.getField(0), ${op.key!.typeInfo})\n        .transform(new Operator${n}Writer())`
    : `.transform(new Operator${n}Writer())`;
  return `  /** Row of operator ${op.operator.uid ?? op.operator.id}: key, tag (${'KEYED_ROW'} or the operator state's index), operator state element, then per keyed state its values. */
  static final TypeInformation<Row> ROW_${n} = Types.ROW(${rowTypes.join(', ')});

  /** Operator ${op.operator.uid ?? op.operator.id} (id ${op.operator.id}), max parallelism ${op.operator.maxParallelism}: ${[...op.keyed, ...op.operatorStates].map((s) => `${s.name} (${s.kind})`).join(', ')}. */
  static StateBootstrapTransformation<Row> operator${n}(SavepointReader old) throws Exception {
    OperatorIdentifier id = ${identifierFor(op)};
    DataStream<Row> rows = ${union};
    return OperatorTransformation.bootstrapWith(rows)
        .setMaxParallelism(${op.operator.maxParallelism})
        ${transform};
  }
`;
}

export interface JavaInput {
  line: MigrationFlinkLine;
  savepointName: string;
  operators: readonly CarriedOperator[];
  kryoConfig: readonly KryoConfigEntry[];
}

export function renderMigrationJava(j: JavaInput): string {
  const maxParallelism = Math.max(1, ...j.operators.map((o) => o.operator.maxParallelism));
  const withOperators = j.operators.map((op, n) => `        .withOperator(${identifierFor(op)}, operator${n}(old))`).join('\n');
  return `package ${MIGRATION_PACKAGE};

import io.github.flink.gcp.protobuf.ProtobufTypeInformation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.OperatorTransformation;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.SavepointWriter;
import org.apache.flink.state.api.StateBootstrapTransformation;
import org.apache.flink.state.api.functions.KeyedStateBootstrapFunction;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.api.functions.StateBootstrapFunction;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Generated by savepoint-inspector migration-job from ${j.savepointName} (Flink ${j.line} line).
 * Reads the Protobuf states held by Kryo with the savepoint's Kryo configuration and writes them into a new
 * savepoint declared with flink-datastream-protobuf's ProtobufTypeInformation. See README.md for what it carries.
 *
 * Usage: ${MIGRATION_CLASS} <old savepoint> <new savepoint>
 */
public final class ${MIGRATION_CLASS} {
  private ${MIGRATION_CLASS}() {}

  /** The saved KryoSerializerSnapshot's registrations and default serializers, in their order. */
  static void configureOldKryo(StreamExecutionEnvironment env) {
    SerializerConfigImpl kryo = (SerializerConfigImpl) env.getConfig().getSerializerConfig();
${j.kryoConfig.map((e) => `    ${e.kind === 'registered' ? 'register' : 'addDefault'}(kryo, ${javaString(e.type)}, ${e.serializer ? javaString(e.serializer) : 'null'});`).join('\n')}
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static void register(SerializerConfigImpl kryo, String type, String serializer) {
    Class<?> t = load(type);
    if (t == null) return;
    if (serializer == null) kryo.registerKryoType(t);
    else kryo.registerTypeWithKryoSerializer(t, (Class) load(serializer));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static void addDefault(SerializerConfigImpl kryo, String type, String serializer) {
    Class<?> t = load(type);
    if (t != null) kryo.addDefaultKryoSerializer(t, (Class) load(serializer));
  }

  /** A class of the old configuration; one that is not on the class path is reported and left out. */
  static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ${MIGRATION_CLASS}.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      System.err.println("Kryo configuration: class " + name + " is not on the class path; its registration is left out");
      return null;
    }
  }

  static final int KEYED_ROW = -1;
  static final TypeInformation<byte[]> BYTES = PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ${MIGRATION_CLASS} <old savepoint> <new savepoint>");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    conf.setString("pipeline.generic-types", "true");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    configureOldKryo(env);
    SavepointReader old = SavepointReader.read(env, args[0], new HashMapStateBackend());
    SavepointWriter.newSavepoint(env, new HashMapStateBackend(), ${maxParallelism})
${withOperators}
        .write(args[1]);
    env.execute("Kryo-held Protobuf state to ProtobufTypeInformation");
  }

  static Row withTag(int arity, Object key, int tag, byte[] element) {
    Row row = new Row(arity);
    row.setField(0, key);
    row.setField(1, tag);
    row.setField(2, element);
    return row;
  }

${j.operators.map((op, n) => [renderTransformation(op, n), op.keyed.length > 0 ? renderReader(op, n, j.line) : '', renderWriter(op, n, j.line)].filter(Boolean).join('\n')).join('\n')}}
`;
}
