package config

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/toolhost/toolhost/internal/config/secret"
)

// This file holds env.NAME = { secret = "…" }: a variable whose value is a
// secret read at call time (package secret). The reference is kept in
// Entry.Secrets (and Defaults.Secrets), beside the plain Env, so that
// nothing reading Env — the cache key, the persisted resolution,
// --explain — ever sees a secret. The catalog resolves Secrets when it
// runs the tool.

var secretKeys = []string{"secret"}

// envValue decodes one env.NAME value: a string into env, a
// { secret = "…" } table into secrets.
func (d *decoder) envValue(path []string, v any, env map[string]string, secrets *map[string]secret.Ref) bool {
	t, ok := v.(map[string]any)
	if !ok {
		s, ok := d.str(path, v)
		if ok {
			env[path[len(path)-1]] = s
		}
		return ok
	}
	ref, ok := d.secretRef(path, t)
	if ok {
		if *secrets == nil {
			*secrets = map[string]secret.Ref{}
		}
		(*secrets)[path[len(path)-1]] = ref
	}
	return ok
}

// secretRef decodes { secret = "env:VAR" | "file:PATH" | "keyring:NAME" }.
// A relative PATH is anchored at the configuration file's directory.
func (d *decoder) secretRef(path []string, t map[string]any) (secret.Ref, bool) {
	ok := true
	for _, k := range sortedKeys(t) {
		if k != "secret" {
			d.unknown(with(path, k), secretKeys)
			ok = false
		}
	}
	v, has := t["secret"]
	if !ok {
		return secret.Ref{}, false // the unknown key said it
	}
	if !has {
		d.fail(path, ErrInvalid, `%s: a table here is a secret: write { secret = "env:VAR" }, { secret = "file:PATH" } or { secret = "keyring:NAME" }`, dotted(path))
		return secret.Ref{}, false
	}
	p := with(path, "secret")
	s, isStr := d.str(p, v)
	if !isStr {
		return secret.Ref{}, false
	}
	ref, err := secret.Parse(s)
	if err != nil {
		why := err.Error()
		if se := (*secret.SyntaxError)(nil); errors.As(err, &se) {
			why = se.Why
		}
		d.fail(p, ErrInvalid, "%s: %s", dotted(p), why)
		return secret.Ref{}, false
	}
	if ref.Kind == secret.KindFile && !filepath.IsAbs(ref.Name) && !strings.HasPrefix(ref.Name, "~/") {
		ref.Name = filepath.Join(filepath.Dir(d.file), ref.Name)
	}
	return ref, true
}

// overrideEnv makes a later layer's env.NAME win over an earlier one's
// whichever form each has: a plain value drops the earlier secret of the
// same name, and a secret the earlier plain value.
func overrideEnv(env *map[string]string, secrets *map[string]secret.Ref, srcEnv map[string]string, srcSecrets map[string]secret.Ref) {
	for k := range srcEnv {
		delete(*secrets, k)
	}
	for k, r := range srcSecrets {
		delete(*env, k)
		if *secrets == nil {
			*secrets = map[string]secret.Ref{}
		}
		(*secrets)[k] = r
	}
}

// applySecrets adds [defaults]' secret variables that e sets in neither
// form.
func (d *Defaults) applySecrets(e *Entry) {
	for k, r := range d.Secrets {
		if _, ok := e.Env[k]; ok {
			continue
		}
		if _, ok := e.Secrets[k]; ok {
			continue
		}
		if e.Secrets == nil {
			e.Secrets = map[string]secret.Ref{}
		}
		e.Secrets[k] = r
		e.Pos["env."+k] = d.Pos["env."+k]
	}
}

// ResolveSecrets reads the values of e's secret variables, at call time:
// NAME → value, for the tool's environment. Every reference that cannot
// be read is in the error (each names its place, the reference and the
// fix, never a value). opts may be nil (toolhost's own environment).
func (e *Entry) ResolveSecrets(opts *secret.Options) (map[string]secret.Value, error) {
	if len(e.Secrets) == 0 {
		return nil, nil
	}
	out := make(map[string]secret.Value, len(e.Secrets))
	var errs []error
	for _, k := range sortedKeys(e.Secrets) {
		v, err := e.Secrets[k].Resolve(opts)
		if err != nil {
			errs = append(errs, &Error{Pos: e.Pos["env."+k], Key: e.Key() + ".env." + k, Err: err, Msg: "env." + k + ": " + err.Error()})
			continue
		}
		out[k] = v
	}
	return out, errors.Join(errs...)
}
