// Command generator replays the scenarios of ../scenarios.json with upstream
// structured-merge-diff (Go) and writes every step's result to ../results.json,
// for @orchard/ssa's differential tests. Run ../generate.sh (needs Debian's
// golang-k8s-sigs-structured-merge-diff-dev, as /work/shared/anchors/smd-go/run.sh installs).
package main

import (
	"encoding/json"
	"fmt"
	"io/ioutil"
	"os"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

type noopConverter struct{}

func (noopConverter) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (noopConverter) IsMissingVersionError(error) bool { return false }

type step struct {
	Op      string                 `json:"op"` // apply | update
	Manager string                 `json:"manager"`
	Force   bool                   `json:"force"`
	Object  map[string]interface{} `json:"object"`
}

type scenario struct {
	Name  string `json:"name"`
	Steps []step `json:"steps"`
}

type input struct {
	SchemaYAML string     `json:"schemaYAML"`
	Root       string     `json:"root"`
	Scenarios  []scenario `json:"scenarios"`
}

type entry struct {
	Manager   string          `json:"manager"`
	Operation string          `json:"operation"`
	FieldsV1  json.RawMessage `json:"fieldsV1"`
}

type stepResult struct {
	Object    interface{} `json:"object,omitempty"`
	Managers  []entry     `json:"managers,omitempty"`
	Conflicts []string    `json:"conflicts,omitempty"`
	Error     string      `json:"error,omitempty"`
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func render(mf fieldpath.ManagedFields) []entry {
	names := []string{}
	for n := range mf {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []entry{}
	for _, n := range names {
		raw, err := mf[n].Set().ToJSON()
		must(err)
		op := "Update"
		if mf[n].Applied() {
			op = "Apply"
		}
		out = append(out, entry{n, op, raw})
	}
	return out
}

func main() {
	dir := os.Args[1]
	in_, out_ := "scenarios.json", "results.json"
	if len(os.Args) > 3 {
		in_, out_ = os.Args[2], os.Args[3]
	}
	raw, err := ioutil.ReadFile(dir + "/" + in_)
	must(err)
	var in input
	must(json.Unmarshal(raw, &in))
	parser, err := typed.NewParser(typed.YAMLObject(in.SchemaYAML))
	must(err)
	pt := parser.Type(in.Root)
	updater := &merge.Updater{Converter: noopConverter{}}
	results := map[string][]stepResult{}
	for _, sc := range in.Scenarios {
		live, err := pt.FromUnstructured(map[string]interface{}{})
		must(err)
		managers := fieldpath.ManagedFields{}
		for _, st := range sc.Steps {
			obj, err := pt.FromUnstructured(normalize(st.Object).(map[string]interface{}))
			if err != nil {
				results[sc.Name] = append(results[sc.Name], stepResult{Error: err.Error()})
				continue
			}
			var out *typed.TypedValue
			var mf fieldpath.ManagedFields
			if st.Op == "apply" {
				out, mf, err = updater.Apply(live, obj, "v1", managers.Copy(), st.Manager, st.Force)
			} else {
				out, mf, err = updater.Update(live, obj, "v1", managers.Copy(), st.Manager)
			}
			if err != nil {
				r := stepResult{Error: err.Error()}
				if cs, ok := err.(merge.Conflicts); ok {
					for _, c := range cs {
						r.Conflicts = append(r.Conflicts, fmt.Sprintf("%s %s", c.Manager, c.Path.String()))
					}
					sort.Strings(r.Conflicts)
				}
				results[sc.Name] = append(results[sc.Name], r)
				continue
			}
			if out != nil {
				live = out
			}
			managers = mf
			results[sc.Name] = append(results[sc.Name], stepResult{Object: live.AsValue().Unstructured(), Managers: render(managers)})
		}
	}
	b, err := json.MarshalIndent(results, "", " ")
	if in_ != "scenarios.json" {
		b, err = json.Marshal(results)
	}
	must(err)
	must(ioutil.WriteFile(dir+"/"+out_, append(b, '\n'), 0644))
	fmt.Println("wrote", dir+"/"+out_)
}

// normalize turns JSON numbers that are integers into int64, as Kubernetes' unstructured decoding does.
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case []interface{}:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
		return t
	default:
		return v
	}
}
