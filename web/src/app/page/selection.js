// Picking up a card and putting it down: a click, a tap or a key chooses a place; Python names
// the picked-up card's targets (Session.targets), and choosing one of them moves the card
// there (moves.js). With tap-to-move on, one tap plays a card to its best place instead.
import { t } from "./i18n.js";
import { saidPicked, saidRefusal } from "./messages.js";
import rules from "./rules.js";
import { readSwitch, writeSetting } from "./settings.js";
import { cardAt, cardsAt, isCascade } from "./state.js";

/**
 * The selection on a state: {choose, tap, pickUp, cancel, forget, setTapToMove}; `call(op,
 * args)` asks Python, `act(op, args, options)` makes a move (moves.js), `enqueue` queues an
 * action. The tap-to-move setting starts as stored; when none is, on where the primary pointer
 * is coarse (a touch screen) and off for a mouse.
 */
export function createSelection({ state, call, view, messages, enqueue, act }) {
  state.tapToMove = readSwitch("tapToMove");

  async function select(selection) {
    state.selection = selection;
    state.targets = [];
    view.render(state);
    if (!selection) return;
    const codes = cardsAt(state.game, selection.place);
    const card = selection.card ?? codes.at(-1);
    const count = codes.length - codes.indexOf(card);
    messages.announce(saidPicked(card, count, state.faces));
    const reply = await call("targets", { source: selection.place });
    if (reply.ok && state.selection === selection) {
      state.targets = reply.targets;
      view.render(state);
    }
  }

  async function chosen(place, card, again) {
    const { game, selection } = state;
    if (!game || !place) return;
    if (!selection) {
      if (place === rules.foundation) messages.note(() => t("pick.foundation"));
      else if (cardAt(game, place) !== null) {
        messages.say("");
        await select({ place, card });
      } else if (isCascade(place)) {
        messages.note(() => t("pick.empty-cascade", { cascade: place }));
      } else messages.note(() => t("pick.empty-freecell", { cell: place.toUpperCase() }));
      return;
    }
    if (selection.place === place) {
      if (card && card !== selection.card) await select({ place, card });
      else if (again === "best") {
        const picked = selection.card ?? cardAt(game, place);
        await act("play_card", { card: picked, auto: state.auto });
      } else await select(null);
      return;
    }
    await act("play", {
      source: selection.place,
      target: place,
      card: selection.card ?? "",
      auto: state.auto,
      longest: true,
    });
  }

  return {
    /**
     * A card or a place was chosen (click, tap, key): pick it up, or put the picked-up card
     * there. `again` says what choosing the picked-up place again does: "drop" it, or play its
     * "best" move. A click's move onto an empty cascade takes as much of a run as may go.
     */
    choose: (place, card = null, again = "drop") => enqueue(() => chosen(place, card, again)),
    /**
     * A tap (or a click) on a place and the card there, if any. With tap-to-move on and nothing
     * picked up, a card goes to its best place (Python's choice: Session.play_card); one with
     * no move shakes, and screen readers hear why. Otherwise as choose(): pick up, put down.
     */
    tap: (place, card = null) =>
      enqueue(() => {
        if (!state.tapToMove || !card || state.selection || place === rules.foundation) {
          return chosen(place, card, "drop");
        }
        const refused = (reply) => {
          messages.announce(saidRefusal(reply, state)());
          view.shake(card);
        };
        return act("play_card", { card, auto: state.auto }, { refused });
      }),
    /** Pick up a card and those below it (a long press), whatever was picked up before. */
    pickUp: (place, card) => enqueue(() => (state.game ? select({ place, card }) : null)),
    /** Drop the picked-up card, if any. */
    cancel: () => enqueue(() => (state.selection ? select(null) : undefined)),
    /** The game changed (moves.js): nothing is picked up any more; the caller renders. */
    forget() {
      state.selection = null;
      state.targets = [];
    },
    /** Turn tap-to-move on or off (remembered): whether one tap on a card plays it. */
    setTapToMove(on) {
      state.tapToMove = on;
      writeSetting("tapToMove", on);
    },
  };
}
