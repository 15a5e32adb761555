"""The pages that gather a phone's rubbers and groups: the home page and the history."""
