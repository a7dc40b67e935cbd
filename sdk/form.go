package sdk

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolhost/toolhost/tool"
)

// AskForm asks the questions of a form, one per field of the struct T. They
// are answered together. This is protocol v2. An MCP client shows one form,
// and a terminal asks one question after another. AskForm returns T
// filled from the answers once every question has one. Until then it
// returns a [*NeedsInputError] asking the questions still unanswered.
// Return it, and the run ends with a needs_input outcome. message, when
// not "", is shown before the form as the first question's pre_amble.
//
// Each exported field is a question. Its id is the field's json name, and
// its text is its description tag, else the name. The struct tags are
// those of tool inputs. See "Parameters" in the package documentation.
//
//   - bool → a Boolean question.
//   - string → Text, or Select with enum tags. With the bare tag option
//     secret it is Secret (`jsonschema:"description=API token,secret"`). A
//     host never logs nor echoes a Secret answer.
//   - integer and float kinds → Number, bounded by minimum and maximum.
//     Unsigned kinds are bounded by 0 too. Integer kinds are whole.
//   - default=… is the answer a host uses when nobody can be asked. A
//     secret has none.
//
// Other field types are an error. A request of protocol v1 is asked one
// question per run, in field order. It cannot ask Secret and Number
// questions (see [Ask]).
//
//	type Login struct {
//		User  string `json:"user" jsonschema:"description=User name"`
//		Token string `json:"token" jsonschema:"description=API token,secret"`
//		Days  int    `json:"days" jsonschema:"description=Valid for how many days?,minimum=1,maximum=90,default=30"`
//	}
//	login, err := sdk.AskForm[Login](ctx, "Sign in to the registry")
//	if err != nil {
//		return "", err
//	}
func AskForm[T any](ctx context.Context, message string) (T, error) {
	var zero T
	typ := reflect.TypeFor[T]()
	qs, p, err := formQuestions(typ)
	if err != nil {
		return zero, err
	}
	answers := map[string]any{}
	var missing []tool.Question
	req := RequestFrom(ctx)
	v1 := req != nil && req.Protocol != tool.Version2
	for _, q := range qs {
		if v1 && len(missing) > 0 {
			break // protocol v1 asks one question per run
		}
		a, ok, err := answer(ctx, q)
		if err != nil {
			return zero, err
		}
		if ok {
			answers[q.ID] = a
		} else {
			missing = append(missing, q)
		}
	}
	if len(missing) > 0 {
		if message != "" {
			missing[0].PreAmble = &message
		}
		return zero, &NeedsInputError{Question: missing[0], Questions: missing}
	}
	v, _, err := decodeStruct(p, typ, answers)
	if err != nil {
		return zero, fmt.Errorf("sdk: the answers of form %s: %v", typ, err)
	}
	return *v.(*T), nil
}

// formQuestions returns the questions of the form struct t, in field
// order, and its reflected parameters.
func formQuestions(t reflect.Type) ([]tool.Question, *params, error) {
	if t.Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("sdk: form type %s is not a struct", t)
	}
	p := reflectParams("form", t, false)
	if p.err != nil {
		return nil, nil, p.err
	}
	if len(p.order) == 0 {
		return nil, nil, fmt.Errorf("sdk: form type %s has no fields", t)
	}
	secret := secretFields(t)
	qs := make([]tool.Question, 0, len(p.order))
	for _, name := range p.order {
		par := p.byName[name]
		q := tool.Question{ID: name, Text: par.Summary, Default: par.Default}
		if q.Text == "" {
			q.Text = name
		}
		typ := ""
		if len(par.Type) > 0 {
			typ = par.Type[0]
		}
		switch {
		case typ == "boolean":
			q.AnswerType = tool.Boolean
		case typ == "string" && secret[name]:
			q.AnswerType, q.Default = tool.Secret, nil
		case typ == "string" && len(par.Enum) > 0:
			opts := make([]string, len(par.Enum))
			for i, e := range par.Enum {
				opts[i], _ = e.(string)
			}
			q.AnswerType = tool.Select(opts...)
		case typ == "string":
			q.AnswerType = tool.Text
		case typ == "integer" || typ == "number":
			min := par.Minimum
			if k := p.kinds[par]; min == nil && k >= reflect.Uint && k <= reflect.Uintptr {
				zero := 0.0
				min = &zero
			}
			q.AnswerType = tool.Number(min, par.Maximum, typ == "integer")
		default:
			return nil, nil, fmt.Errorf("sdk: form type %s: field %q is %s: a form field must be a bool, a string or a number", t, name, strings.Join(par.Type, " or "))
		}
		qs = append(qs, q)
	}
	return qs, p, nil
}

// secretFields returns the json names of the fields of struct t whose
// jsonschema tag has the option secret.
func secretFields(t reflect.Type) map[string]bool {
	m := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !hasOption(splitTags(f.Tag.Get("jsonschema")), "secret") {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		m[name] = true
	}
	return m
}
