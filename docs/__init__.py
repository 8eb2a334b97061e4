"""Scripts that draw the pictures the documentation shows, from the code that draws them in
the bot."""
