"""The words of La Conquista del Oeste's cards, marked for translation.

The card data (``engine/components.json``) is the rules' source and stays in English; the
pages show each card's title and text through these entries, which the title's catalogue
translates. ``tests/web/test_card_words.py`` keeps them equal to the data, card by card.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

#: Card id -> (title, text), the English exactly as in the data file.
CARD_WORDS: dict[str, tuple[str, str]] = {
    "opp-01": (
        gettext_noop("Portrait of Lily Langtry"),
        gettext_noop(
            "A signed portrait of the actress Lily Langtry. Judge Roy Bean lets whoever "
            "carries it pass. Keep it: it is not spent."
        ),
    ),
    "opp-02": (
        gettext_noop("Portrait of Lily Langtry"),
        gettext_noop(
            "A second print of the famous portrait, bought from a travelling "
            "photographer. Judge Roy Bean lets its holder pass. Keep it."
        ),
    ),
    "opp-03": (
        gettext_noop("Inheritance"),
        gettext_noop(
            "A letter from Baltimore: an aunt has left you a small fortune. Receive 800 $ "
            "from the bank."
        ),
    ),
    "opp-04": (
        gettext_noop("Gold nugget"),
        gettext_noop("You trip over a nugget the size of a walnut. Receive 500 $ from the bank."),
    ),
    "opp-05": (
        gettext_noop("Winning ticket"),
        gettext_noop("Your lottery ticket from the state fair wins. Receive 300 $ from the bank."),
    ),
    "opp-06": (
        gettext_noop("Sold a map"),
        gettext_noop(
            "A greenhorn pays dearly for a map you drew yourself. Receive 400 $ from the bank."
        ),
    ),
    "opp-07": (
        gettext_noop("Spare oxen"),
        gettext_noop(
            "A farmer gives you a yoke of oxen for helping with the harvest. Take an oxen "
            "card from the bank."
        ),
    ),
    "opp-08": (
        gettext_noop("Old wagon"),
        gettext_noop("An abandoned wagon, still sound. Take a wagon card from the bank."),
    ),
    "opp-09": (
        gettext_noop("Sack of flour"),
        gettext_noop(
            "The mission gives you provisions for the road. Take a provisions card from the bank."
        ),
    ),
    "opp-10": (
        gettext_noop("Army surplus"),
        gettext_noop(
            "A sergeant sells you an army revolver for a song. Take a revolver card from the bank."
        ),
    ),
    "opp-11": (
        gettext_noop("Good lawyer"),
        gettext_noop(
            "A lawyer from Philadelphia gets you out. Play it in any prison: you leave it "
            "and roll for a normal move."
        ),
    ),
    "opp-12": (
        gettext_noop("Jailbreak"),
        gettext_noop(
            "Friends saw through the bars. Play it in any prison: you leave it and roll "
            "for a normal move."
        ),
    ),
    "opp-13": (
        gettext_noop("Governor's pardon"),
        gettext_noop(
            "The governor signs your pardon. Play it to hand all your Wanted posters back "
            "to the bank."
        ),
    ),
    "opp-14": (
        gettext_noop("Railway pass"),
        gettext_noop(
            "A pass signed by the company's president. Play it in Norfolk or St. Louis to "
            "ride the railway free."
        ),
    ),
    "opp-15": (
        gettext_noop("Fast horses"),
        gettext_noop(
            "You hire fresh horses for one stage. Play it after your movement roll: move "
            "up to 2 more spaces."
        ),
    ),
    "opp-16": (
        gettext_noop("Shortcut"),
        gettext_noop(
            "An old trapper shows you a trail. Play it after your movement roll: move up "
            "to 1 more space."
        ),
    ),
    "opp-17": (
        gettext_noop("Lucky streak"),
        gettext_noop(
            "Your luck at the tables is the talk of the town. Receive 600 $ from the bank."
        ),
    ),
    "opp-18": (
        gettext_noop("Good lawyer"),
        gettext_noop(
            "Another lawyer, as good as the first. Play it in prison: you leave it and "
            "roll for a normal move."
        ),
    ),
    "inc-01": (
        gettext_noop("Stampede"),
        gettext_noop("Your oxen bolt in a thunderstorm. Hand one oxen card back to the bank."),
    ),
    "inc-02": (
        gettext_noop("Broken axle"),
        gettext_noop("Your wagon breaks on the rocks. Hand one wagon card back to the bank."),
    ),
    "inc-03": (
        gettext_noop("Spoiled stores"),
        gettext_noop("The rain ruins your provisions. Hand one provisions card back to the bank."),
    ),
    "inc-04": (
        gettext_noop("Lost in the river"),
        gettext_noop(
            "Your revolver falls into the river at the ford. Hand one revolver card back "
            "to the bank."
        ),
    ),
    "inc-05": (
        gettext_noop("Captured"),
        gettext_noop("A war party takes you to their camp. Go to the Indian prison in Liberty."),
    ),
    "inc-06": (
        gettext_noop("Taken prisoner"),
        gettext_noop(
            "You stray onto the hunting grounds and are taken. Go to the Indian prison in Liberty."
        ),
    ),
    "inc-07": (
        gettext_noop("Road agents"),
        gettext_noop("Masked men stop the wagon. Pay 500 $ to the bank (or all you have)."),
    ),
    "inc-08": (
        gettext_noop("Toll bridge"),
        gettext_noop("A ferryman asks a steep price. Pay 200 $ to the bank (or all you have)."),
    ),
    "inc-09": (
        gettext_noop("Doctor's bill"),
        gettext_noop("Fever in the camp. Pay 300 $ to the bank (or all you have)."),
    ),
    "inc-10": (
        gettext_noop("Found a strongbox"),
        gettext_noop("A strongbox lies by a burnt coach. Receive 400 $ from the bank."),
    ),
    "inc-11": (
        gettext_noop("Trading post"),
        gettext_noop("You sell furs at a trading post. Receive 200 $ from the bank."),
    ),
    "inc-12": (
        gettext_noop("Blizzard"),
        gettext_noop("Snow closes the pass. Miss your next turn."),
    ),
    "inc-13": (
        gettext_noop("Lame ox"),
        gettext_noop("You rest the animals. Miss your next turn."),
    ),
    "inc-14": (
        gettext_noop("Posse"),
        gettext_noop(
            "A posse reads the posters. If you hold a Wanted poster, go to the nearest prison."
        ),
    ),
    "inc-15": (
        gettext_noop("Marshal's visit"),
        gettext_noop("A marshal rides in. If you hold a Wanted poster, go to the nearest prison."),
    ),
    "inc-16": (
        gettext_noop("Abandoned camp"),
        gettext_noop(
            "An abandoned camp has provisions to spare. Take a provisions card from the bank."
        ),
    ),
    "inc-17": (
        gettext_noop("Quiet road"),
        gettext_noop("Nothing happens on this stretch of the trail."),
    ),
    "inc-18": (
        gettext_noop("Dust storm"),
        gettext_noop(
            "A dust storm ruins your provisions. Hand one provisions card back to the bank."
        ),
    ),
}
