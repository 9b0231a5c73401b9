// Command goref renders Go text/template cases with sprig and Landscaper's
// registry-free functions; it is the reference the TypeScript engine is
// checked against. Input: JSON lines of cases on stdin; output: JSON lines of
// results on stdout, one per case, in order.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
	"sigs.k8s.io/yaml"
)

type goCase struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Template string            `json:"template"`
	Data     json.RawMessage   `json:"data"`
	Files    map[string]string `json:"files"`
	// Bench > 0 renders the case that many times and reports timings.
	Bench int `json:"bench"`
}

type goResult struct {
	ID      string  `json:"id"`
	Output  *string `json:"output,omitempty"`
	Error   *string `json:"error,omitempty"`
	Phase   string  `json:"phase,omitempty"`
	BenchNs []int64 `json:"benchNs,omitempty"`
}

// memFs is the blueprint filesystem of one case: a flat map of file paths.
type memFs map[string]string

type memInfo struct {
	name  string
	size  int64
	isDir bool
}

func (m memInfo) Name() string { return m.name }
func (m memInfo) Size() int64  { return m.size }
func (m memInfo) Mode() os.FileMode {
	if m.isDir {
		return os.ModeDir | 0o755
	}
	return 0o644
}
func (m memInfo) ModTime() time.Time { return time.Time{} }
func (m memInfo) IsDir() bool        { return m.isDir }
func (m memInfo) Sys() interface{}   { return nil }

func cleanPath(p string) string { return strings.TrimPrefix(path.Clean("/"+p), "/") }

func (fs memFs) readFile(p string) ([]byte, error) {
	c, ok := fs[cleanPath(p)]
	if !ok {
		return nil, fmt.Errorf("open %s: file does not exist", p)
	}
	return []byte(c), nil
}

func (fs memFs) readDir(p string) ([]os.FileInfo, error) {
	dir := cleanPath(p)
	seen := map[string]memInfo{}
	for f, c := range fs {
		rest := f
		if dir != "" && dir != "." {
			if !strings.HasPrefix(f, dir+"/") {
				continue
			}
			rest = strings.TrimPrefix(f, dir+"/")
		}
		if i := strings.Index(rest, "/"); i >= 0 {
			seen[rest[:i]] = memInfo{name: rest[:i], isDir: true}
		} else {
			seen[rest] = memInfo{name: rest, size: int64(len(c))}
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("open %s: file does not exist", p)
	}
	out := make([]os.FileInfo, 0, len(seen))
	for _, i := range seen {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name() < out[b].Name() })
	return out, nil
}

// includeLimit mirrors Landscaper's recursion limit for include per file.
const includeLimit = 100

func funcMap(fs memFs) template.FuncMap {
	fm := sprig.TxtFuncMap()
	delete(fm, "env")
	delete(fm, "expandenv")
	depth := map[string]int{}
	var include func(p string, binding interface{}) (string, error)
	include = func(p string, binding interface{}) (string, error) {
		if depth[p] >= includeLimit {
			return "", fmt.Errorf("include %q: recursion limit of %d exceeded", p, includeLimit)
		}
		src, err := fs.readFile(p)
		if err != nil {
			return "", err
		}
		depth[p]++
		defer func() { depth[p]-- }()
		t, err := template.New(p).Funcs(fm).Option("missingkey=zero").Parse(string(src))
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, binding); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	extra := template.FuncMap{
		"toYaml": func(v interface{}) string {
			data, err := yaml.Marshal(v)
			if err != nil {
				return ""
			}
			return strings.TrimSuffix(string(data), "\n")
		},
		"fromYaml": func(s string) (interface{}, error) {
			var v interface{}
			if err := yaml.Unmarshal([]byte(s), &v); err != nil {
				return nil, err
			}
			return v, nil
		},
		"readFile": func(p string) []byte {
			b, err := fs.readFile(p)
			if err != nil {
				panic(err)
			}
			return b
		},
		"readDir": func(p string) []os.FileInfo {
			i, err := fs.readDir(p)
			if err != nil {
				panic(err)
			}
			return i
		},
		"include":       include,
		"parseOCIRef":   parseOCIRef,
		"ociRefRepo":    func(ref string) string { return parseOCIRef(ref)[0] },
		"ociRefVersion": func(ref string) string { return parseOCIRef(ref)[1] },
	}
	for k, v := range extra {
		fm[k] = v
	}
	return fm
}

// parseOCIRef splits "repo:tag" or "repo@digest" into repository and version.
// Landscaper delegates to an OCI reference parser; this keeps its observable
// results for the usual forms (host with port, tag, digest) without the
// Docker Hub normalisation.
func parseOCIRef(ref string) [2]string {
	if i := strings.Index(ref, "@"); i >= 0 {
		return [2]string{ref[:i], ref[i+1:]}
	}
	slash := strings.LastIndex(ref, "/")
	colon := strings.LastIndex(ref, ":")
	if colon > slash {
		return [2]string{ref[:colon], ref[colon+1:]}
	}
	if !strings.Contains(ref, ":") {
		panic("invalid reference")
	}
	return [2]string{ref, ""}
}

func render(c goCase) goResult {
	res := goResult{ID: c.ID}
	name := c.Name
	if name == "" {
		name = "execution"
	}
	var data interface{} = map[string]interface{}{}
	if len(c.Data) > 0 {
		// Landscaper decodes imports with encoding/json: every number is a float64.
		if err := json.Unmarshal(c.Data, &data); err != nil {
			msg := "bad case data: " + err.Error()
			res.Error = &msg
			res.Phase = "data"
			return res
		}
	}
	fs := memFs{}
	for k, v := range c.Files {
		fs[cleanPath(k)] = v
	}
	// One function map per case, reused by benchmark iterations (as the TS side does).
	fm := funcMap(fs)
	once := func() (string, string, error) {
		t, err := template.New(name).Funcs(fm).Option("missingkey=zero").Parse(c.Template)
		if err != nil {
			return "", "parse", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return buf.String(), "exec", err
		}
		return buf.String(), "", nil
	}
	out, phase, err := once()
	if err != nil {
		msg := err.Error()
		res.Error = &msg
		res.Phase = phase
	} else {
		res.Output = &out
	}
	if c.Bench > 0 {
		res.BenchNs = make([]int64, 0, c.Bench)
		for i := 0; i < c.Bench; i++ {
			start := time.Now()
			_, _, _ = once()
			res.BenchNs = append(res.BenchNs, time.Since(start).Nanoseconds())
		}
	}
	return res
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var c goCase
			var res goResult
			if jerr := json.Unmarshal(line, &c); jerr != nil {
				msg := "bad case: " + jerr.Error()
				res = goResult{Error: &msg, Phase: "data"}
			} else {
				res = safeRender(c)
			}
			if eerr := enc.Encode(res); eerr != nil {
				fmt.Fprintln(os.Stderr, eerr)
				os.Exit(1)
			}
			// Flush per case so a streaming caller can pair requests and answers.
			out.Flush()
		}
		if err != nil {
			if !errors.Is(err, os.ErrClosed) && err.Error() != "EOF" {
				fmt.Fprintln(os.Stderr, err)
			}
			return
		}
	}
}

// safeRender turns a panic escaping text/template (e.g. a stack overflow is
// not recoverable, but a panic in Parse is) into an error result.
func safeRender(c goCase) (res goResult) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("panic: %v", r)
			res = goResult{ID: c.ID, Error: &msg, Phase: "panic"}
		}
	}()
	return render(c)
}
