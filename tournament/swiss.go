package tournament

import "errors"

func nextSwiss(s State) (Step, error) {
	return Step{}, errors.New("swiss: not yet")
}
