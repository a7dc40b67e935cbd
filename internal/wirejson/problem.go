package wirejson

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Problem words an error of encoding/json's decoder for a person or a
// model, from its type, without Go's type names. A value of the wrong
// type is "not a JSON object (a JSON array)", or "limit: wrong type (a
// JSON string)" for a field. A syntax error keeps its own words, which
// name no Go type. Any other error is worded as it is.
func Problem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("not a JSON object (a JSON %s)", te.Value)
		}
		return fmt.Sprintf("%s: wrong type (a JSON %s)", te.Field, te.Value)
	}
	return err.Error()
}
