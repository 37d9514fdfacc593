import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { IsString, Length, MinLength } from 'class-validator';
import { McpModule, McpPrompt, McpResource, McpTool } from 'nestjs-mcp';

/**
 * An app that docs/testing.md never mentions, for the specs written only from that page
 * (`from-the-docs.*`): a lending library whose members search and whose librarians lend.
 */

const BOOKS = [
  { isbn: '9780141439518', title: 'Pride and Prejudice', author: 'Austen' },
  { isbn: '9780141439662', title: 'Sense and Sensibility', author: 'Austen' },
  { isbn: '9780141441146', title: 'Jane Eyre', author: 'Brontë' },
];

/** The endpoint's guard: a member's or a librarian's card, else 401. */
@Injectable()
export class LibraryCardGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: any; user?: unknown }>();
    const card = /^Bearer (member|librarian)-card$/.exec(String(request.headers.authorization));
    if (!card) throw new UnauthorizedException('Show a library card (Bearer member-card)');
    request.user = { role: card[1] };
    return true;
  }
}

/** A tool guard: librarians only (members neither see nor call the tool). */
@Injectable()
export class LibrarianGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: { role?: string } }>();
    return request.user?.role === 'librarian';
  }
}

export class FindBooksDto {
  @IsString()
  @MinLength(2)
  author!: string;
}

export class LendBookDto {
  @IsString()
  @Length(13, 13)
  isbn!: string;
}

export class GenreDto {
  @IsString()
  genre!: string;
}

@Injectable()
export class LibraryTools {
  @McpTool({ description: 'Finds the books of an author.' })
  findBooks({ author }: FindBooksDto) {
    const titles = BOOKS.filter((book) => book.author === author).map((book) => book.title);
    return { count: titles.length, titles };
  }

  @McpTool({ description: 'Lends a book to a reader (librarians only).' })
  @UseGuards(LibrarianGuard)
  lendBook({ isbn }: LendBookDto) {
    const book = BOOKS.find((candidate) => candidate.isbn === isbn);
    return book ? `Lent: ${book.title}` : `No book ${isbn}`;
  }

  @McpPrompt({ description: 'Asks for a recommendation in a genre.' })
  recommend({ genre }: GenreDto) {
    return `Recommend a ${genre} novel from our shelves.`;
  }

  @McpResource({ uri: 'library://opening-hours', description: 'When the library is open.' })
  openingHours() {
    return 'Mon-Fri 9:00-18:00';
  }
}

@Module({
  imports: [
    McpModule.forRoot({ name: 'library', version: '1.0.0', http: { guards: [LibraryCardGuard] } }),
  ],
  providers: [LibraryTools, LibraryCardGuard, LibrarianGuard],
})
export class LendingLibraryModule {}
