package cli

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/toolhost/toolhost/tool"
)

func TestTypeValue(t *testing.T) {
	str := &tool.Parameter{Type: tool.Types{"string"}}
	tests := []struct {
		name    string
		in      string
		p       *tool.Parameter
		want    any
		wantErr string
	}{
		{"unknown parameter keeps string", "42", nil, "42", ""},
		{"no type keeps string", "true", &tool.Parameter{}, "true", ""},
		{"string kept", " 42 ", str, " 42 ", ""},
		{"integer", "42", &tool.Parameter{Type: tool.Types{"integer"}}, json.Number("42"), ""},
		{"negative integer", "-7", &tool.Parameter{Type: tool.Types{"integer"}}, json.Number("-7"), ""},
		{"bad integer", "4.5", &tool.Parameter{Type: tool.Types{"integer"}}, nil, `want an integer, got "4.5"`},
		{"number", "4.5", &tool.Parameter{Type: tool.Types{"number"}}, json.Number("4.5"), ""},
		{"bad number", "x", &tool.Parameter{Type: tool.Types{"number"}}, nil, `want a number, got "x"`},
		{"boolean", "true", &tool.Parameter{Type: tool.Types{"boolean"}}, true, ""},
		{"boolean false", "0", &tool.Parameter{Type: tool.Types{"boolean"}}, false, ""},
		{"bad boolean", "maybe", &tool.Parameter{Type: tool.Types{"boolean"}}, nil, `want true or false, got "maybe"`},
		{"object", `{"a":1}`, &tool.Parameter{Type: tool.Types{"object"}}, map[string]any{"a": json.Number("1")}, ""},
		{"bad object", `[1]`, &tool.Parameter{Type: tool.Types{"object"}}, nil, `want a JSON object, got "[1]"`},
		{"object with a key twice", `{"a":1,"a":2}`, &tool.Parameter{Type: tool.Types{"object"}}, nil, `duplicate key "a" in "{\"a\":1,\"a\":2}"`},
		{"array with a key twice", `[{"k":1,"k":2}]`, &tool.Parameter{Type: tool.Types{"array"}}, nil, `duplicate key "k" in /0 in "[{\"k\":1,\"k\":2}]"`},
		{"array json", `[1,"a"]`, &tool.Parameter{Type: tool.Types{"array"}}, []any{json.Number("1"), "a"}, ""},
		{"array commas typed by items", "1,2", &tool.Parameter{Type: tool.Types{"array"}, Items: &tool.Parameter{Type: tool.Types{"integer"}}}, []any{json.Number("1"), json.Number("2")}, ""},
		{"array commas untyped", "a,b", &tool.Parameter{Type: tool.Types{"array"}}, []any{"a", "b"}, ""},
		{"empty array", "", &tool.Parameter{Type: tool.Types{"array"}}, []any{}, ""},
		{"bad array item", "1,x", &tool.Parameter{Type: tool.Types{"array"}, Items: &tool.Parameter{Type: tool.Types{"integer"}}}, nil, `item "x": want an integer, got "x"`},
		{"nullable integer, null", "null", &tool.Parameter{Type: tool.Types{"integer", "null"}}, nil, ""},
		{"nullable integer, 3", "3", &tool.Parameter{Type: tool.Types{"integer", "null"}}, json.Number("3"), ""},
		{"integer or string falls back", "abc", &tool.Parameter{Type: tool.Types{"integer", "string"}}, "abc", ""},
		{"integer beyond 2^53 keeps its digits", "9007199254740993", &tool.Parameter{Type: tool.Types{"integer"}}, json.Number("9007199254740993"), ""},
		{"30-digit integer", "123456789012345678901234567890", &tool.Parameter{Type: tool.Types{"integer"}}, json.Number("123456789012345678901234567890"), ""},
		{"exponent is no integer", "1e3", &tool.Parameter{Type: tool.Types{"integer"}}, nil, `want an integer, got "1e3"`},
		{"two numbers", "1 2", &tool.Parameter{Type: tool.Types{"number"}}, nil, `want a number, got "1 2"`},
		{"integer or string parses", "12", &tool.Parameter{Type: tool.Types{"integer", "string"}}, json.Number("12"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := typeValue(tt.in, tt.p)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if fix := errFix(err); strings.Contains(tt.name, "key twice") != (fix == "give each key once") {
					t.Errorf("fix %q: want \"give each key once\" for a key twice only, as a field", fix)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestParseArguments(t *testing.T) {
	params := map[string]*tool.Parameter{
		"n":    {Type: tool.Types{"integer"}},
		"path": {Type: tool.Types{"string"}},
	}
	got, err := parseArguments(`{"path":"a","x":[1]}`, []string{"n=3", "path=b=c"}, params)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"path": "b=c", "n": json.Number("3"), "x": []any{json.Number("1")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	for _, tt := range []struct {
		json      string
		pairs     []string
		want, fix string
	}{
		{"", []string{"n"}, `argument "n": want key=value`, ""},
		{"", []string{"=1"}, `argument "=1": want key=value`, ""},
		{"", []string{"n=1", "n=2"}, `argument "n" given twice`, ""},
		{"[]", nil, "--args: arguments must be a JSON object", ""},
		{`{"a":1,"a":2}`, nil, `--args: duplicate key "a"`, "send each key once"},
	} {
		_, err := parseArguments(tt.json, tt.pairs, params)
		var u *usageError
		if !errors.As(err, &u) || err.Error() != tt.want || u.fix != tt.fix || exitCode(err) != ExitFailure {
			t.Errorf("parseArguments(%q, %q): error %v (fix %q), want usage error %q (fix %q)", tt.json, tt.pairs, err, errFix(err), tt.want, tt.fix)
		}
	}
}

func TestParseAnswer(t *testing.T) {
	yesNo := tool.Question{ID: "ok", AnswerType: tool.Boolean}
	pick := tool.Question{ID: "pick", AnswerType: tool.Select("red", "green")}
	text := tool.Question{ID: "name", AnswerType: tool.Text}
	many := tool.Question{ID: "many", AnswerType: tool.Select("red", "green", "blue")}
	many.AnswerType.Multiple = true
	count := tool.Question{ID: "n", AnswerType: tool.Number(nil, nil, true)}
	tests := []struct {
		in      string
		q       tool.Question
		want    any
		wantErr string
	}{
		{"1, blue", many, []any{"red", "blue"}, ""},
		{"", many, []any{}, ""},
		{"red,red", many, nil, `question "many" wants a list of distinct options of ["red" "green" "blue"], got ["red","red"]`},
		{"red,pink", many, nil, `question "many" wants one of ["red" "green" "blue"], got "pink"`},
		{"12345678901234567890", count, json.Number("12345678901234567890"), ""},
		{"1.5", count, nil, `question "n" wants a whole number, got 1.5`},
		{"yes", yesNo, true, ""},
		{"N", yesNo, false, ""},
		{"true", yesNo, true, ""},
		{"perhaps", yesNo, nil, `question "ok" wants yes or no, got "perhaps"`},
		{"green", pick, "green", ""},
		{"1", pick, "red", ""},
		{"3", pick, nil, `question "pick" wants one of ["red" "green"], got "3"`},
		{"42", text, "42", ""},
	}
	for _, tt := range tests {
		got, err := parseAnswer(tt.in, tt.q)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("parseAnswer(%q): error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseAnswer(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestPermute(t *testing.T) {
	_, app := newApp(nil, nil, nil, nil)
	tests := []struct{ in, want string }{
		{"list --json", "list --json"},
		{"call echo text=a --json", "call --json echo text=a"},
		{"call echo --args {} x=1", "call --args {} echo x=1"},
		{"call echo --args={} x=1", "call --args={} echo x=1"},
		{"--root /tmp call echo --answer a=1 t=2", "--root /tmp call --answer a=1 echo t=2"},
		{"call echo --help", "call --tool-help echo"},
		{"call --help", "call --help"},
		{"describe echo --explain --json", "describe --explain --json echo"},
		{"schema -- bin/x --json", "schema -- bin/x --json"},
		{"add greet --tool g -- bin/fs --v", "add --tool g -- greet bin/fs --v"},
		{"add greet -- bin/fs", "add -- greet bin/fs"},
		{"call -- x --json", "call -- x --json"},
		{"cache clear --help", "cache clear --help"},
		{"call echo --no-cache", "--no-cache call echo"},
		{"describe echo --config a.toml --json", "--config a.toml describe --json echo"},
		{"-c a.toml cache clear --root /r", "-c a.toml --root /r cache clear"},
		{"bogus --json", "bogus --json"},
	}
	for _, tt := range tests {
		got := strings.Join(permute(app, strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("permute(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{silent(1), 1},
		{usageErrorf("x"), 2},
		{errors.New("boom"), 2},
		{&exitError{code: 1, err: errors.New("x")}, 1},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}
